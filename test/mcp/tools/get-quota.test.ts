import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addSound } from '../../helpers/sounds.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { callTool, connectMcp } from '../mcp-client.ts';

describe("quota at an agent's hand", () => {
  let server: TestServer;
  let client: Client;
  before(async () => {
    server = await startServer();
    await addSound(server.services, { name: 'Quota laser', tags: ['laser'] });
    const { key, account } = await server.account('pro');
    await server.services.accounts.createKey(account.id, 'second');
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const rateLimit = (result: { _meta?: Record<string, unknown> }) =>
    result._meta?.rate_limit as { limit: number; remaining: number; reset: number };

  test('mcp.get-quota: plan, limit, remaining, reset and keys in use; the call costs nothing', async () => {
    const first = await callTool(client, 'get_quota');
    assert.equal(first.isError, undefined);
    const quota = first.structuredContent as {
      plan: string;
      limit: number;
      remaining: number;
      reset: number;
      keys_in_use: number;
      max_keys: number;
    };
    assert.equal(quota.plan, 'pro');
    assert.equal(quota.limit, 2500);
    assert.equal(quota.keys_in_use, 2);
    assert.equal(quota.max_keys, 2);
    assert.equal(quota.reset, Date.UTC(2026, 5, 16) / 1000);
    const again = (await callTool(client, 'get_quota')).structuredContent as typeof quota;
    assert.equal(again.remaining, quota.remaining, 'get_quota spends nothing');
    await callTool(client, 'search_sounds', { q: 'laser' });
    const afterSearch = (await callTool(client, 'get_quota')).structuredContent as typeof quota;
    assert.equal(afterSearch.remaining, quota.remaining - 1, 'a search spends one');
  });

  test(
    'mcp.rate-limit-meta: ' + 'every tool result carries the rate-limit state as of its call, errors included',
    async () => {
      const search = await callTool(client, 'search_sounds', { q: 'laser' });
      const state = rateLimit(search);
      assert.equal(state.limit, 2500);
      assert.equal(state.reset, Date.UTC(2026, 5, 16) / 1000);
      const missing = await callTool(client, 'get_sound', { id: 'no-such-sound' });
      assert.equal(missing.isError, true);
      assert.equal(rateLimit(missing).remaining, state.remaining - 1);
      const quota = await callTool(client, 'get_quota');
      assert.equal(rateLimit(quota).remaining, state.remaining - 1);
      assert.equal((quota.structuredContent as { remaining: number }).remaining, state.remaining - 1);
    },
  );
});
