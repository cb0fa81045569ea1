import { soundTools } from '../../src/mcp/tools/index.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Account } from '../../src/accounts/store.ts';
import { utcDay } from '../../src/quota/quota.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { callTool, connectMcp, postMcp, textOf } from './mcp-client.ts';

describe('mcp.quota: each tool call is one request of the daily quota', () => {
  let server: TestServer;
  let account: Account;
  let key: string;
  let client: Client;
  let id: string;

  before(async () => {
    server = await startServer();
    ({ account, key } = await server.account('pro'));
    ({ id } = await addSound(server.services, { name: 'Laser Zap' }));
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const usedToday = async () => (await server.services.usageHistory.usage(account.id, [utcDay(server.clock.now)]))[0];

  it('initialize and tools/list are free; each tools/call counts one, bad arguments included', async () => {
    await client.listTools();
    assert.equal(await usedToday(), 0);
    await callTool(client, 'get_sound', { id });
    assert.equal(await usedToday(), 1);
    await callTool(client, 'search_sounds', { limit: 0 });
    assert.equal(await usedToday(), 2);
  });

  it('MCP and REST share the account\'s one quota, and a tool call answers with the rate-limit headers', async () => {
    const before = (await usedToday()) ?? 0;
    await server.get('/api/v1/sounds', { key });
    const response = await postMcp(server, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_sound', arguments: { id } } }, { 'x-api-key': key });
    assert.equal(response.status, 200);
    assert.equal(await usedToday(), before + 2);
    assert.equal(response.headers.get('x-ratelimit-limit'), '2500');
    assert.equal(response.headers.get('x-ratelimit-remaining'), String(2500 - before - 2));
    assert.equal(response.headers.get('x-ratelimit-reset'), String(Date.parse('2026-06-16T00:00:00Z') / 1000));
  });

  it('concurrent calls and JSON-RPC batches count exactly one per tools/call', async () => {
    const before = (await usedToday()) ?? 0;
    const results = await Promise.all(Array.from({ length: 20 }, () => callTool(client, 'get_stream_url', { id })));
    assert.ok(results.every((result) => result.isError !== true));
    const call = (n: number) => ({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'get_sound', arguments: { id } } });
    const response = await postMcp(server, [call(1), call(2), { jsonrpc: '2.0', id: 3, method: 'tools/list' }], { 'x-api-key': key });
    assert.equal(response.status, 200);
    const answers = (await response.json()) as Array<{ id: number; result: { isError?: boolean } }>;
    assert.deepEqual(answers.map((answer) => answer.id).sort(), [1, 2, 3]);
    assert.equal(await usedToday(), before + 22);
  });

  it('once the quota is spent a tool call gets an error result saying when it resets, and is not counted', async () => {
    const { quota, clock } = server.services;
    for (let used = (await usedToday()) ?? 0; used < 2500; used += 1) {
      await quota.consume(account.id, 'spend-it', account.plan.dailyQuota, clock());
    }
    const result = await callTool(client, 'search_sounds', { q: 'laser' });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
    const text = textOf(result);
    assert.match(text, /Daily quota of 2500 requests exceeded/);
    assert.match(text, /2026-06-16T00:00:00\.000Z/);
    assert.match(text, new RegExp(String(Date.parse('2026-06-16T00:00:00Z') / 1000)));
    assert.equal(await usedToday(), 2500);
  });

  it('the session is not broken: listing works, and calls work again after midnight UTC', async () => {
    assert.equal((await client.listTools()).tools.length, soundTools.length);
    server.clock.advance(12 * 3600 * 1000);
    const result = await callTool(client, 'get_sound', { id });
    assert.notEqual(result.isError, true);
    assert.equal(await usedToday(), 1);
  });
});
