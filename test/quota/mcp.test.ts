import { soundTools } from '../../src/mcp/tools/index.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { QUOTA_EXCEEDED } from '../../src/mcp/json-rpc.ts';
import type { Account } from '../../src/accounts/store.ts';
import { utcDay } from '../../src/quota/quota.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { callTool, connectMcp, postMcp, textOf } from '../mcp/mcp-client.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';

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

  it("MCP and REST share the account's one quota, and a tool call answers with the rate-limit headers", async () => {
    const before = (await usedToday()) ?? 0;
    await server.get('/api/v1/sounds', { key });
    const response = await postMcp(
      server,
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_sound', arguments: { id } } },
      { 'x-api-key': key },
    );
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
    const call = (n: number) => ({
      jsonrpc: '2.0',
      id: n,
      method: 'tools/call',
      params: { name: 'get_sound', arguments: { id } },
    });
    const response = await postMcp(server, [call(1), call(2), { jsonrpc: '2.0', id: 3, method: 'tools/list' }], {
      'x-api-key': key,
    });
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

describe('mcp.quota: resource reads, resource pages and previews count like tool calls; describing is free', () => {
  let server: TestServer;
  let account: Account;
  let key: string;
  let client: Client;
  let id: string;

  before(async () => {
    server = await startServer();
    ({ account, key } = await server.account('pro'));
    ({ id } = await addRealSound(server.services, tone(0.8, 0.3), 'Blip', ['blip']));
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const usedToday = async () =>
    (await server.services.usageHistory.usage(account.id, [utcDay(server.clock.now)]))[0] ?? 0;

  it('resources/templates/list, prompts/list and prompts/get are free', async () => {
    await client.listResourceTemplates();
    await client.listPrompts();
    await client.getPrompt({ name: 'build_ui_sound_set', arguments: { style: 'soft' } });
    await client.getPrompt({ name: 'find_sound_for_scene', arguments: {} }).catch(() => undefined);
    assert.equal(await usedToday(), 0);
  });

  it('each page of resources/list counts one, as a REST search does, a refused cursor included', async () => {
    const { resources } = await client.listResources();
    assert.equal(resources.length, 1);
    assert.equal(await usedToday(), 1);
    await assert.rejects(client.listResources({ cursor: 'not-a-cursor' }));
    assert.equal(await usedToday(), 2);
  });

  it(
    'each resources/read counts one, an unknown sound included; each ' +
      'preview_sound counts one, plus ten the first time its preview is made',
    async () => {
      const before = await usedToday();
      await client.readResource({ uri: `sound://${id}` });
      assert.equal(await usedToday(), before + 1);
      await assert.rejects(client.readResource({ uri: 'sound://no-such-sound' }));
      assert.equal(await usedToday(), before + 2);
      await callTool(client, 'preview_sound', { id });
      assert.equal(await usedToday(), before + 13, 'the call, and ten for making the preview');
      await callTool(client, 'preview_sound', { id });
      assert.equal(await usedToday(), before + 14, 'a stored preview costs only the call');
      const read = (n: number) => ({
        jsonrpc: '2.0',
        id: n,
        method: 'resources/read',
        params: { uri: `sound://${id}` },
      });
      const response = await postMcp(server, [read(1), read(2), { jsonrpc: '2.0', id: 3, method: 'resources/list' }], {
        'x-api-key': key,
      });
      assert.equal(response.status, 200);
      assert.equal(await usedToday(), before + 17, 'two reads and a page of the list');
      assert.equal(response.headers.get('x-ratelimit-remaining'), String(2500 - before - 17));
    },
  );

  it(
    "over quota, a read or a page of the list is a JSON-RPC error with the tools' message and the reset time, " +
      'a preview an error result; none is counted',
    async () => {
      const { quota, clock } = server.services;
      for (let used = await usedToday(); used < 2500; used += 1)
        await quota.consume(account.id, 'spend-it', account.plan.dailyQuota, clock());
      const reset = Date.parse('2026-06-16T00:00:00Z') / 1000;
      const quotaExceeded = (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, QUOTA_EXCEEDED);
        assert.match(error.message, /Daily quota of 2500 requests exceeded\. It resets at 2026-06-16T00:00:00\.000Z/);
        assert.deepEqual(error.data, { limit: 2500, reset });
        return true;
      };
      await assert.rejects(client.readResource({ uri: `sound://${id}` }), quotaExceeded);
      await assert.rejects(client.listResources(), quotaExceeded);
      const preview = await callTool(client, 'preview_sound', { id });
      assert.equal(preview.isError, true);
      assert.match(textOf(preview), new RegExp(`Daily quota of 2500 requests exceeded.*Unix time ${reset}`));
      assert.equal(preview.content.length, 1, 'no audio, no links');
      assert.equal(await usedToday(), 2500);
      assert.equal((await client.listResourceTemplates()).resourceTemplates.length, 1, 'describing still works');
      assert.equal((await client.listPrompts()).prompts.length, 2);
    },
  );
});
