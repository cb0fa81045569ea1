import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { callTool, connectMcp, textOf } from './mcp-client.ts';

describe('mcp.lists: list_popular and list_samples give what their REST endpoints give', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  let popularId: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    await addSound(server.services, { name: 'Bird Song', tags: ['bird', 'nature'], sample: true, category: 'AMBIENT' });
    await addSound(server.services, { name: 'Thunder Clap', tags: ['storm'], sample: true });
    ({ id: popularId } = await addSound(server.services, { name: 'Power Up', tags: ['game'] }));
    await server.services.catalog.countDownload(popularId);
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const restBody = async (path: string, withKey: boolean) => {
    const response = await server.get(path, withKey ? { key } : {});
    assert.equal(response.status, 200);
    return (await response.json()) as { data: unknown[]; pagination: unknown; meta?: unknown };
  };

  it('list_popular matches GET /api/v1/sounds/popular, most downloaded first', async () => {
    const result = await callTool(client, 'list_popular', { limit: 2 });
    const rest = await restBody('/api/v1/sounds/popular?limit=2', true);
    assert.deepEqual(result.structuredContent, { data: rest.data, pagination: rest.pagination });
    assert.equal((rest.data[0] as { id: string }).id, popularId);
    assert.match(textOf(result), /^3 sounds in all; page 1 of 2, 2 shown \(2 per page\):\n- Power Up .* · 1 download$/m);
  });

  it('list_popular defaults to 30 like REST', async () => {
    const result = await callTool(client, 'list_popular');
    const rest = await restBody('/api/v1/sounds/popular', true);
    assert.deepEqual(result.structuredContent, { data: rest.data, pagination: rest.pagination });
  });

  it('list_samples matches the public sample list (without its sign-up invitation)', async () => {
    const result = await callTool(client, 'list_samples');
    const rest = await restBody('/api/v1/sounds/sample', false);
    assert.deepEqual(result.structuredContent, { data: rest.data, pagination: rest.pagination });
    assert.equal(rest.data.length, 2);
    assert.match(textOf(result), /^2 samples in all/);
  });

  it('list_samples filters by keyword and by any of its tags (OR), as REST does', async () => {
    const byTags = await callTool(client, 'list_samples', { tags: ['bird', 'storm'] });
    assert.equal((byTags.structuredContent as { data: unknown[] }).data.length, 2);
    const byWord = await callTool(client, 'list_samples', { q: 'thunder', limit: 5 });
    const rest = await restBody('/api/v1/sounds/sample?q=thunder&limit=5', false);
    assert.deepEqual(byWord.structuredContent, { data: rest.data, pagination: rest.pagination });
  });
});
