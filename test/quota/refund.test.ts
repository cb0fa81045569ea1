import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * A refund gives requests back to the day they were taken from, in the counter and in the usage history, on every
 * backend.
 */
describe('quota.refund: requests given back for work that failed', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const remainingOf = async (key: string) =>
    Number((await server.get('/api/v1/sounds?limit=1', { key })).headers.get('x-ratelimit-remaining'));

  test('quota.refund.today: what is refunded can be spent again, and the history shows the net count', async () => {
    const { account, key } = await server.account('pro');
    await server.services.quota.consume(account.id, null, 2500, server.clock.now, 30);
    assert.equal(await remainingOf(key), 2500 - 31);
    await server.services.quota.refund(account.id, null, server.clock.now, 30);
    assert.equal(await remainingOf(key), 2500 - 2);
    assert.deepEqual(await server.services.usageHistory.usage(account.id, ['2026-06-15']), [2]);
    // All of it again, now that it was given back.
    const decision = await server.services.quota.consume(account.id, null, 2500, server.clock.now, 2498);
    assert.equal(decision.allowed, true);
  });

  test('quota.refund.past-day: a charge of yesterday refunded today goes back to yesterday, not to today', async () => {
    const { account, key } = await server.account('pro');
    const yesterday = server.clock.now - 86_400_000;
    await server.services.quota.consume(account.id, null, 2500, yesterday, 40);
    await server.services.quota.refund(account.id, null, yesterday, 40);
    assert.deepEqual(await server.services.usageHistory.usage(account.id, ['2026-06-14', '2026-06-15']), [0, 0]);
    assert.equal(await remainingOf(key), 2499, 'today untouched');
  });

  test('quota.refund.restart: the refund is durable: a new process starts from the net count', async () => {
    const { account, key } = await server.account('pro');
    await server.services.quota.consume(account.id, null, 2500, server.clock.now, 50);
    await server.services.quota.refund(account.id, null, server.clock.now, 20);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startServer({ dataDir, clock: server.clock });
    assert.equal(await remainingOf(key), 2500 - 30 - 1);
  });
});
