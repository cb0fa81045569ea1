import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { callTool, connectMcp } from '../mcp-client.ts';

interface PopularList {
  data: Array<{ id: string; numDownloads: number }>;
}

describe('mcp.downloads: get_download_url counts a download like REST, get_stream_url does not', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  let id: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    ({ id } = await addSound(server.services, { name: 'Glass Break' }));
    await addSound(server.services, { name: 'Footsteps' });
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const downloadsOf = async (soundId: string) => {
    const result = await callTool(client, 'list_popular', {});
    const sound = (result.structuredContent as unknown as PopularList).data.find(
      (candidate) => candidate.id === soundId,
    );
    assert.ok(sound);
    return sound.numDownloads;
  };

  it('streaming leaves the count alone', async () => {
    const before = await downloadsOf(id);
    await callTool(client, 'get_stream_url', { id });
    await callTool(client, 'get_stream_url', { id });
    await callTool(client, 'get_sound', { id });
    assert.equal(await downloadsOf(id), before);
  });

  it('each download URL adds one, and list_popular ranks by it', async () => {
    const before = await downloadsOf(id);
    await callTool(client, 'get_download_url', { id });
    await callTool(client, 'get_download_url', { id });
    assert.equal(await downloadsOf(id), before + 2);
    const popular = (await callTool(client, 'list_popular', { limit: 1 })).structuredContent as unknown as PopularList;
    assert.deepEqual(
      popular.data.map((sound) => sound.id),
      [id],
    );
  });

  it('MCP and REST downloads add up on the same counter', async () => {
    const before = await downloadsOf(id);
    assert.equal((await server.get(`/api/v1/sounds/${id}/download`, { key })).status, 200);
    await callTool(client, 'get_download_url', { id });
    assert.equal(await downloadsOf(id), before + 2);
  });
});
