import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, TestClock, type TestServer } from '../helpers/server.ts';
import { signedIn } from './helpers/accounts.ts';
import { visibleText } from './helpers/web-client.ts';

const DAY = 86_400_000;

describe('dashboard usage overview', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ clock: new TestClock(Date.parse('2026-06-15T16:30:00Z')) });
  });
  after(() => server.close());

  test('usage.today: requests today, remaining and the time to the midnight-UTC reset', async () => {
    const { client, account } = await signedIn(server, 'pro');
    const { key } = await server.services.accounts.createKey(account.id, 'k');
    for (let i = 0; i < 4; i++) assert.equal((await server.get('/api/v1/sounds', { key })).status, 200);
    const text = visibleText((await client.get('/dashboard')).text);
    assert.match(text, /Requests today 4 4 of 2,500 of 2,500 a day/);
    assert.match(text, /Remaining today 2,496/);
    assert.match(text, /Resets in 7 h 30 min at 16 Jun 2026, 00:00 UTC/);
    assert.match(text, /API keys 1 of 2/);
  });

  test('usage.chart: 30 daily bars from the real counters, today last, with a table of the same numbers', async () => {
    const { client, account } = await signedIn(server, 'pro');
    const { key, record } = await server.services.accounts.createKey(account.id, 'k');
    const now = server.clock.now;
    // The quota store is what the API writes on every counted request; earlier days come from it too.
    for (let i = 0; i < 5; i++) await server.services.quota.consume(account.id, record.id, 2500, now - 3 * DAY);
    await server.services.quota.consume(account.id, record.id, 2500, now - 29 * DAY);
    await server.services.quota.consume(account.id, record.id, 2500, now - 30 * DAY);
    for (let i = 0; i < 2; i++) await server.get('/api/v1/sounds', { key });
    const page = (await client.get('/dashboard')).text;
    const wide = /<svg class="usage-chart chart-wide"[\s\S]*?<\/svg>/.exec(page)![0];
    const titles = [...wide.matchAll(/<title>([^<]+)<\/title>/g)].map((m) => m[1]);
    assert.equal(titles.length, 30);
    assert.equal(titles[0], 'May 17: 1 request', 'the oldest day is 29 days ago; the 30th day back is left out');
    assert.equal(titles[26], 'Jun 12: 5 requests');
    assert.equal(titles[29], 'Jun 15: 2 requests');
    assert.match(wide, /class="chart-bar chart-bar-today"/);
    assert.match(wide, /aria-label="Requests per day over the last 30 days: 8 in total, most on Jun 12 \(5\)\."/);
    assert.match(page, /<svg class="usage-chart chart-narrow"/);
    const table = visibleText(/<details class="chart-table">[\s\S]*?<\/details>/.exec(page)![0]);
    assert.match(table, /Jun 15, 2026 2 Jun 14, 2026 0 Jun 13, 2026 0 Jun 12, 2026 5/);
  });

  test('usage.per-key: each key has its own daily count beside the account total', async () => {
    const { account } = await signedIn(server, 'pro');
    const first = await server.services.accounts.createKey(account.id, 'first');
    const second = await server.services.accounts.createKey(account.id, 'second');
    await server.get('/api/v1/sounds', { key: first.key });
    for (let i = 0; i < 2; i++) await server.get('/api/v1/sounds', { key: second.key });
    const today = new Date(server.clock.now).toISOString().slice(0, 10);
    assert.deepEqual(await server.services.usageHistory.keyUsage(first.record.id, [today]), [1]);
    assert.deepEqual(await server.services.usageHistory.keyUsage(second.record.id, [today]), [2]);
    assert.deepEqual(await server.services.usageHistory.usage(account.id, [today]), [3]);
  });

  test('usage.free: a free account sees an empty chart and what the paid plans give', async () => {
    const { client } = await signedIn(server, 'free');
    const page = await client.get('/dashboard');
    const text = visibleText(page.text);
    assert.equal(page.status, 200);
    assert.match(text, /Your Free plan has no API access/);
    assert.doesNotMatch(text, /Requests today/);
    assert.match(page.text, /<a class="button" href="\/dashboard\/upgrade">How to upgrade<\/a>/);
  });

  test('usage.reset: the countdown reads "less than a minute" just before midnight UTC', async () => {
    const late = await startServer({ clock: new TestClock(Date.parse('2026-06-15T23:59:30Z')) });
    try {
      const { client } = await signedIn(late, 'pro');
      assert.match(
        visibleText((await client.get('/dashboard')).text),
        /Resets in less than a minute at 16 Jun 2026, 00:00 UTC/,
      );
    } finally {
      await late.close();
    }
  });
});
