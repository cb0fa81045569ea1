import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { callTool, connectMcp, textOf } from '../mcp/mcp-client.ts';

describe('packs.mcp: get_pack_url gives the same pack as GET /api/v1/packs, at the same price', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  const ids: string[] = [];

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    for (const name of ['Glass Break', 'Footsteps']) ids.push((await addSound(server.services, { name })).id);
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test('a pack URL whose ZIP holds the sounds, one request per sound', async () => {
    const before = Number((await server.get('/api/v1/sounds/popular?limit=1', { key })).headers.get('x-ratelimit-remaining'));
    const result = await callTool(client, 'get_pack_url', { ids });
    assert.equal(result.isError, undefined, textOf(result));
    const data = result.structuredContent as { download_url: string; sounds: number; estimated_bytes: number };
    assert.equal(data.sounds, 2);
    assert.match(textOf(result), /Pack of 2 sounds/);
    const after = Number((await server.get('/api/v1/sounds/popular?limit=1', { key })).headers.get('x-ratelimit-remaining'));
    // The tool call and one more request for the second sound, then the popular call itself.
    assert.equal(before - after, 3);
    const zip = await fetch(data.download_url);
    assert.equal(zip.status, 200);
    const bytes = Buffer.from(await zip.arrayBuffer());
    assert.equal(bytes.readUInt32LE(0), 0x04034b50, 'a ZIP local header first');
    assert.ok(bytes.includes(Buffer.from(`glass-break-${ids[0]}.mp3`)));
  });

  test('unknown ids are named, repeated ids refused', async () => {
    const unknown = await callTool(client, 'get_pack_url', { ids: [ids[0], 'nope-sound'] });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /nope-sound/);
    const repeated = await callTool(client, 'get_pack_url', { ids: [ids[0], ids[0]] });
    assert.equal(repeated.isError, true);
    assert.match(textOf(repeated), /repeats/);
  });
});
