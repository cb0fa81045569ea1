import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { parseBuffer } from 'music-metadata';
import { decodeAudio } from '../../../src/audio/decode/index.ts';
import { RESOURCE_PAGE_SIZE } from '../../../src/mcp/resources/sound-pages.ts';
import { withoutId3 } from '../../helpers/id3.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { callTool, connectMcp, postMcp } from '../mcp-client.ts';
import { addRealSound, tone } from '../real-sounds.ts';

/** 2.4 pages of sounds, so paging has a full page, another, and a short last one. */
const FILLER_SOUNDS = Math.round(RESOURCE_PAGE_SIZE * 2.4) - 2;

describe('mcp.resources: every sound is a sound://{id} resource, listed in pages and linked from tool results', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  let shortId: string;
  let shortMp3: Uint8Array;
  let longId: string;
  const allIds = new Set<string>();

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    ({ id: shortId, mp3: shortMp3 } = await addRealSound(server.services, tone(1.2, 0.3), 'Short Beep', ['beep']));
    ({ id: longId } = await addSound(server.services, {
      name: 'Long Rain',
      duration: 95,
      tags: ['rain'],
      category: 'AMBIENT',
    }));
    allIds.add(shortId).add(longId);
    for (let n = 0; n < FILLER_SOUNDS; n++)
      allIds.add((await addSound(server.services, { name: `Filler ${n}`, tags: ['filler'] })).id);
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const restSound = async (id: string) => {
    const response = await server.get(`/api/v1/sounds/${id}`, { key });
    assert.equal(response.status, 200);
    return ((await response.json()) as { data: unknown }).data;
  };

  it('resources/templates/list offers the sound://{id} template', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((template) => [template.uriTemplate, template.mimeType]),
      [['sound://{id}', 'application/json']],
    );
    assert.match(resourceTemplates[0]!.description ?? '', /30 s/);
  });

  it(
    'resources/list pages through the whole catalog with opaque cursors, each sound once, no cursor on the last ' +
      'page',
    async () => {
      const seen: string[] = [];
      const listed: Array<{ uri: string; name: string; description?: string }> = [];
      const pageSizes: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        pageSizes.push(page.resources.length);
        listed.push(...page.resources);
        for (const resource of page.resources) {
          assert.match(resource.uri, /^sound:\/\/[0-9a-f]{16}$/);
          assert.equal(resource.mimeType, 'application/json');
          assert.ok(resource.name.length > 0);
          seen.push(resource.uri.slice('sound://'.length));
        }
        cursor = page.nextCursor;
        if (cursor !== undefined) assert.doesNotMatch(cursor, /page|\d+$/, 'the cursor is opaque');
      } while (cursor !== undefined);
      assert.deepEqual(pageSizes, [RESOURCE_PAGE_SIZE, RESOURCE_PAGE_SIZE, allIds.size - 2 * RESOURCE_PAGE_SIZE]);
      assert.equal(new Set(seen).size, seen.length, 'no sound twice');
      assert.deepEqual(new Set(seen), allIds);
      const long = listed.find((resource) => resource.uri === `sound://${longId}`);
      assert.equal(long?.name, 'Long Rain');
      assert.equal(long?.description, '95 s; tags: rain');
    },
  );

  it('a cursor that this server did not give is a JSON-RPC invalid-params error, not a 500', async () => {
    for (const cursor of [
      'nonsense',
      Buffer.from('page:0').toString('base64url'),
      Buffer.from('page:1').toString('base64url'),
      Buffer.from('page:2x').toString('base64url'),
      '',
    ]) {
      await assert.rejects(
        client.listResources({ cursor }),
        (error: unknown) => {
          assert.ok(error instanceof McpError);
          assert.equal(error.code, ErrorCode.InvalidParams);
          assert.match(error.message, /Invalid cursor/);
          return true;
        },
        `cursor ${JSON.stringify(cursor)}`,
      );
    }
    const response = await postMcp(
      server,
      { jsonrpc: '2.0', id: 5, method: 'resources/list', params: { cursor: 42 } },
      { 'x-api-key': key },
    );
    assert.equal(response.status, 200);
    const body = (await response.json()) as { error: { code: number } };
    assert.equal(body.error.code, ErrorCode.InvalidParams);
  });

  it(
    'reading a short sound gives its REST metadata as ' + 'JSON and its MP3 as an audio/mpeg blob that decodes',
    async () => {
      const { contents } = await client.readResource({ uri: `sound://${shortId}` });
      assert.equal(contents.length, 2);
      const [json, audio] = contents;
      assert.equal(json?.uri, `sound://${shortId}`);
      assert.equal(json?.mimeType, 'application/json');
      assert.ok(json && 'text' in json);
      assert.deepEqual(JSON.parse(json.text), await restSound(shortId));
      assert.equal(audio?.mimeType, 'audio/mpeg');
      assert.ok(audio && 'blob' in audio);
      const bytes = new Uint8Array(Buffer.from(audio.blob, 'base64'));
      assert.deepEqual(withoutId3(bytes), shortMp3, "the catalog's own file, behind the sound's tags");
      assert.equal(
        (await parseBuffer(bytes, { mimeType: 'audio/mpeg' })).common.title,
        ((await restSound(shortId)) as { name: string }).name,
      );
      const decoded = await decodeAudio(bytes);
      assert.ok(Math.abs(decoded.channels[0]!.length / decoded.sampleRate - 1.2) < 0.01);
    },
  );

  it('reading a sound longer than 30 s gives the JSON only', async () => {
    const { contents } = await client.readResource({ uri: `sound://${longId}` });
    assert.deepEqual(
      contents.map((content) => content.mimeType),
      ['application/json'],
    );
    assert.ok('text' in contents[0]!);
    assert.deepEqual(JSON.parse(contents[0].text as string), await restSound(longId));
  });

  it('reading an unknown sound is a clear invalid-params error, and the session goes on', async () => {
    for (const uri of ['sound://no-such-sound', 'sound://0000000000000000', 'other://thing']) {
      await assert.rejects(client.readResource({ uri }), (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, ErrorCode.InvalidParams);
        assert.match(
          error.message,
          uri.startsWith('sound:') ? new RegExp(`Sound ${uri.slice(8)} not found`) : /not found/,
        );
        return true;
      });
    }
    assert.equal((await client.readResource({ uri: `sound://${longId}` })).contents.length, 1);
  });

  it('a failure inside a service is a generic error: no internals shown', async () => {
    const { catalog } = server.services;
    const findById = catalog.findById;
    catalog.findById = async () => {
      throw new Error('SQLITE_BUSY: database is locked at /secret/path');
    };
    try {
      await assert.rejects(client.readResource({ uri: `sound://${shortId}` }), (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, ErrorCode.InternalError);
        assert.match(error.message, /Internal error/);
        assert.doesNotMatch(error.message, /SQLITE|secret/);
        return true;
      });
    } finally {
      catalog.findById = findById;
    }
  });

  it('tool results that name sounds link to their resources after the text, and the links read', async () => {
    const linksOf = (content: Array<{ type: string }>) =>
      content.filter((item): item is ResourceLink => item.type === 'resource_link');
    const search = await callTool(client, 'search_sounds', { q: 'filler', limit: 5, detail: 'full' });
    assert.equal(search.content[0]?.type, 'text');
    const searchIds = (search.structuredContent as { data: Array<{ id: string }> }).data.map((sound) => sound.id);
    assert.equal(searchIds.length, 5);
    assert.deepEqual(
      linksOf(search.content).map((link) => link.uri),
      searchIds.map((id) => `sound://${id}`),
    );
    assert.ok(
      linksOf(search.content).every((link) => link.name.startsWith('Filler ') && link.mimeType === 'application/json'),
    );

    for (const [tool, args] of [
      ['get_sound', { id: shortId }],
      ['get_stream_url', { id: shortId }],
      ['get_download_url', { id: shortId }],
      ['get_waveform', { id: shortId }],
    ] as const) {
      const result = await callTool(client, tool, args);
      assert.notEqual(result.isError, true, tool);
      assert.deepEqual(
        linksOf(result.content).map((link) => link.uri),
        [`sound://${shortId}`],
        tool,
      );
    }
    const popular = await callTool(client, 'list_popular', { limit: 3, detail: 'full' });
    assert.deepEqual(
      linksOf(popular.content).map((link) => link.uri),
      (popular.structuredContent as { data: Array<{ id: string }> }).data.map((sound) => `sound://${sound.id}`),
    );
    const similar = await callTool(client, 'find_similar_sounds', { id: shortId, detail: 'full' });
    assert.equal(linksOf(similar.content).length, (similar.structuredContent as { data: unknown[] }).data.length);

    const [link] = linksOf((await callTool(client, 'get_sound', { id: shortId })).content);
    const { contents } = await client.readResource({ uri: link!.uri });
    assert.equal(JSON.parse((contents[0] as { text: string }).text).id, shortId);
  });

  it('an error result carries no links', async () => {
    const result = await callTool(client, 'get_sound', { id: 'no-such-sound' });
    assert.equal(result.isError, true);
    assert.deepEqual(
      result.content.map((item) => item.type),
      ['text'],
    );
  });
});
