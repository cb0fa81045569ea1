import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { callTool, connectMcp, textOf } from '../mcp-client.ts';

describe('mcp.sound-by-id: one sound, its stream and its download, as REST gives them', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  let id: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    ({ id } = await addSound(server.services, {
      name: 'Door Creak',
      duration: 1.8,
      tags: ['door', 'creak'],
      description: 'An old wooden door',
    }));
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const restData = async (path: string) => {
    const response = await server.get(path, { key });
    assert.equal(response.status, 200);
    return ((await response.json()) as { data: unknown }).data;
  };

  it('get_sound returns the REST sound object and a readable summary', async () => {
    const result = await callTool(client, 'get_sound', { id });
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.structuredContent, await restData(`/api/v1/sounds/${id}`));
    const text = textOf(result);
    assert.match(
      text,
      new RegExp(`^- Door Creak \\[id ${id}\\] · 1\\.8 s · SFX · tags: door, creak · -18\\.2 LUFS · onset 12\\.5 ms`),
    );
    assert.match(text, /An old wooden door/);
    assert.match(text, /timing: onset 12\.5 ms, peak 40\.3 ms, tail 900\.1 ms/);
    assert.match(text, /loudness: -18\.2 LUFS integrated, true peak -1\.1 dBTP/);
  });

  it('get_stream_url returns the REST stream result, and the URL plays without a header', async () => {
    const result = await callTool(client, 'get_stream_url', { id });
    assert.deepEqual(result.structuredContent, await restData(`/api/v1/sounds/${id}/stream`));
    const url = (result.structuredContent as { stream_url: string }).stream_url;
    assert.match(textOf(result), new RegExp(`Listen to Door Creak .*${escapeText(url)}`));
    const media = await fetch(url);
    assert.equal(media.status, 200);
    assert.equal(media.headers.get('content-type'), 'audio/mpeg');
  });

  it('get_download_url returns the REST download result, and the URL downloads the file', async () => {
    const result = await callTool(client, 'get_download_url', { id });
    assert.deepEqual(result.structuredContent, await restData(`/api/v1/sounds/${id}/download`));
    const { download_url: url, expires_in: expiresIn } = result.structuredContent as {
      download_url: string;
      expires_in: number;
    };
    assert.equal(expiresIn, 3600);
    assert.match(textOf(result), /Download Door Creak .*within 60 minutes/);
    const media = await fetch(url);
    assert.equal(media.status, 200);
    assert.match(media.headers.get('content-disposition') ?? '', /^attachment/);
  });

  it('a failure inside a service is a generic error result: no internals shown, the session goes on', async () => {
    const { catalog } = server.services;
    const findById = catalog.findById;
    catalog.findById = async () => {
      throw new Error('SQLITE_BUSY: database is locked at /secret/path');
    };
    try {
      const result = await callTool(client, 'get_sound', { id });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /^Internal error/);
      assert.doesNotMatch(textOf(result), /SQLITE|secret/);
    } finally {
      catalog.findById = findById;
    }
    assert.notEqual((await callTool(client, 'get_sound', { id })).isError, true);
  });

  for (const tool of ['get_sound', 'get_stream_url', 'get_download_url']) {
    it(`${tool} answers an unknown id with an error result "Sound X not found", and the session goes on`, async () => {
      const result = await callTool(client, tool, { id: 'no-such-sound' });
      assert.equal(result.isError, true);
      assert.equal(textOf(result), 'Sound no-such-sound not found');
      assert.equal(result.structuredContent, undefined);
      const next = await callTool(client, tool, { id });
      assert.notEqual(next.isError, true);
    });
  }
});

function escapeText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
