import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';

describe('quota', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test(
    'quota.race: 3,000 parallel requests on a fresh ' + 'Pro account give exactly 2,500 × 200 and 500 × 429',
    async () => {
      const { key } = await server.account('pro');
      // All 3,000 are in flight at once over 200 sockets (more would overflow the listen backlog).
      const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });
      const statuses = await Promise.all(
        Array.from({ length: 3000 }, () => statusOf(`${server.url}/api/v1/sounds/popular?limit=1`, key, agent)),
      );
      agent.destroy();
      assert.equal(statuses.filter((s) => s === 200).length, 2500);
      assert.equal(statuses.filter((s) => s === 429).length, 500);
    },
  );

  test(
    'quota.headers: remaining counts down; 429 has the body, ' +
      'headers and Retry-After; refused requests do not count',
    async () => {
      const { account, key } = await server.account('pro');
      const first = await server.get('/api/v1/sounds', { key });
      assert.equal(first.headers.get('x-ratelimit-remaining'), '2499');
      const midnight = Date.parse('2026-06-16T00:00:00Z') / 1000;
      assert.equal(first.headers.get('x-ratelimit-reset'), String(midnight));
      // Spend the rest directly through the store, then ask over HTTP.
      for (let i = 0; i < 2499; i++) await server.services.quota.consume(account.id, 'k', 2500, server.clock.now);
      const refused = await server.get('/api/v1/sounds', { key });
      assert.equal(refused.status, 429);
      assert.deepEqual(await refused.json(), {
        error: 'Daily quota of 2500 requests exceeded; it resets at midnight UTC',
        limit: 2500,
        reset: midnight,
      });
      assert.equal(refused.headers.get('x-ratelimit-limit'), '2500');
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(refused.headers.get('x-ratelimit-reset'), String(midnight));
      assert.equal(refused.headers.get('retry-after'), String(12 * 3600));
      await server.get('/api/v1/sounds', { key });
      const [today] = await server.services.usageHistory.usage(account.id, ['2026-06-15']);
      assert.equal(today, 2500, '429 answers are not counted');
    },
  );

  test('quota.reset: the count starts again at midnight UTC', async () => {
    const { account, key } = await server.account('pro');
    for (let i = 0; i < 2500; i++) await server.services.quota.consume(account.id, 'k', 2500, server.clock.now);
    assert.equal((await server.get('/api/v1/sounds', { key })).status, 429);
    server.clock.now = Date.parse('2026-06-15T23:59:59.999Z');
    assert.equal((await server.get('/api/v1/sounds', { key })).status, 429);
    server.clock.now = Date.parse('2026-06-16T00:00:00Z');
    const next = await server.get('/api/v1/sounds', { key });
    assert.equal(next.status, 200);
    assert.equal(next.headers.get('x-ratelimit-remaining'), '2499');
    server.clock.now = Date.parse('2026-06-15T12:00:00Z');
  });

  test('quota.account: all keys of an account share one quota; a 400 or 404 still counts', async () => {
    const { account, key } = await server.account('enterprise');
    const second = await server.services.accounts.createKey(account.id, 'second');
    assert.equal((await server.get('/api/v1/sounds?bogus=1', { key })).status, 400);
    assert.equal((await server.get('/api/v1/sounds/nope', { key: second.key })).status, 404);
    const response = await server.get('/api/v1/sounds', { key: second.key });
    assert.equal(response.headers.get('x-ratelimit-remaining'), String(50000 - 3));
  });

  test('quota.per-key: daily counts are recorded per key as well as per account', async () => {
    const { account, key } = await server.account('enterprise');
    const second = await server.services.accounts.createKey(account.id, 'second');
    for (let i = 0; i < 3; i++) await server.get('/api/v1/sounds', { key });
    for (let i = 0; i < 2; i++) await server.get('/api/v1/sounds', { key: second.key });
    const first = (await server.services.accounts.listKeys(account.id)).find((record) => record.name === 'test');
    assert.deepEqual(await server.services.usageHistory.keyUsage(first!.id, ['2026-06-14', '2026-06-15']), [0, 3]);
    assert.deepEqual(await server.services.usageHistory.keyUsage(second.record.id, ['2026-06-15']), [2]);
    assert.deepEqual(await server.services.usageHistory.usage(account.id, ['2026-06-15']), [5]);
  });

  test(
    'quota.many-owners: requests of 30 accounts and 60 keys in ' +
      'flight together are each written to their own account and key',
    async () => {
      const owners = await Promise.all(
        Array.from({ length: 30 }, async () => {
          const { account, key } = await server.account('enterprise');
          const second = await server.services.accounts.createKey(account.id, 'second');
          const first = (await server.services.accounts.listKeys(account.id)).find((record) => record.name === 'test')!;
          return {
            account,
            keys: [
              { key, id: first.id, requests: 2 },
              { key: second.key, id: second.record.id, requests: 3 },
            ],
          };
        }),
      );
      const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
      const requests = owners.flatMap(({ keys }) =>
        keys.flatMap(({ key, requests }) => Array.from({ length: requests }, () => key)),
      );
      const statuses = await Promise.all(
        requests.map((key) => statusOf(`${server.url}/api/v1/sounds/popular?limit=1`, key, agent)),
      );
      agent.destroy();
      assert.deepEqual(new Set(statuses), new Set([200]));
      for (const { account, keys } of owners) {
        assert.deepEqual(await server.services.usageHistory.usage(account.id, ['2026-06-15']), [5]);
        for (const { id, requests } of keys)
          assert.deepEqual(await server.services.usageHistory.keyUsage(id, ['2026-06-15']), [requests]);
      }
    },
  );

  test(
    'quota.midnight-flush: counts from both sides of ' + 'midnight, written in one flush, land on their own days',
    async () => {
      const { account, key } = await server.account('enterprise');
      const keyId = (await server.services.accounts.listKeys(account.id))[0]!.id;
      try {
        server.clock.now = Date.parse('2026-06-15T23:59:59.500Z');
        for (let i = 0; i < 3; i++) await server.get('/api/v1/sounds', { key });
        server.clock.now = Date.parse('2026-06-16T00:00:00.200Z');
        for (let i = 0; i < 2; i++) await server.get('/api/v1/sounds', { key });
        assert.deepEqual(await server.services.usageHistory.usage(account.id, ['2026-06-15', '2026-06-16']), [3, 2]);
        assert.deepEqual(await server.services.usageHistory.keyUsage(keyId, ['2026-06-15', '2026-06-16']), [3, 2]);
        // (usage writes what is counted first.) The day that ended was written whole and let go of;
        // counting on the new day goes on.
        await server.get('/api/v1/sounds', { key });
        assert.deepEqual(await server.services.usageHistory.usage(account.id, ['2026-06-15', '2026-06-16']), [3, 3]);
      } finally {
        server.clock.now = Date.parse('2026-06-15T12:00:00Z');
      }
    },
  );

  test(
    'quota.persisted: counts reach the database within a ' + 'second and on shutdown; a restart goes on from them',
    async () => {
      const first = await startServer();
      const { account, key } = await first.account('pro');
      for (let i = 0; i < 3; i++) assert.equal((await first.get('/api/v1/sounds', { key })).status, 200);
      await waitFor(async () => (await storedCount(first, account.id)) === 3);
      for (let i = 0; i < 2; i++) await first.get('/api/v1/sounds', { key });
      await first.close({ keepData: true });
      const second = await startServer({ dataDir: first.dataDir });
      try {
        assert.equal(await storedCount(second, account.id), 5, 'the last counts were written on shutdown');
        const next = await second.get('/api/v1/sounds', { key });
        assert.equal(next.headers.get('x-ratelimit-remaining'), String(2500 - 6));
      } finally {
        await second.close();
      }
    },
  );

  // Both counters start an account's day from the usage history: in process, and Redis when the day's key is missing.
  test(
    'quota.stored: a count already in the database (an ' + 'earlier run of the day) is where counting goes on',
    async () => {
      const { account, key } = await server.account('pro');
      await server.services.database.db
        .insertInto('usage_daily')
        .values({ account_id: account.id, day: '2026-06-15', count: 2499 })
        .execute();
      const last = await server.get('/api/v1/sounds', { key });
      assert.equal(last.status, 200);
      assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await server.get('/api/v1/sounds', { key })).status, 429);
      assert.deepEqual(await server.services.usageHistory.usage(account.id, ['2026-06-15']), [2500]);
    },
  );

  test('quota.public: sample endpoints carry no quota headers and never answer 429', async () => {
    const response = await server.get('/api/v1/sounds/sample');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-ratelimit-limit'), null);
  });
});

async function storedCount(server: TestServer, accountId: string): Promise<number> {
  const row = await server.services.database.db
    .selectFrom('usage_daily')
    .select('count')
    .where('account_id', '=', accountId)
    .where('day', '=', '2026-06-15')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  for (const start = Date.now(); !(await condition()); ) {
    if (Date.now() - start > timeoutMs) assert.fail(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function statusOf(url: string, key: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { 'x-api-key': key } }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      })
      .on('error', reject);
  });
}
