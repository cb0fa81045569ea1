import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { connectMcp } from '../mcp-client.ts';

const TOOL_NAMES = [
  'search_sounds',
  'get_sound',
  'preview_sound',
  'get_stream_url',
  'get_download_url',
  'get_pack_url',
  'list_popular',
  'list_samples',
  'find_similar_sounds',
  'get_waveform',
  'get_quota',
];

describe('mcp.tools-list: what an agent learns before calling anything', () => {
  let server: TestServer;
  let client: Client;
  let tools: Tool[];

  before(async () => {
    server = await startServer();
    const { key } = await server.account('pro');
    client = await connectMcp(server, key);
    tools = (await client.listTools()).tools;
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const tool = (name: string) => {
    const found = tools.find((candidate) => candidate.name === name);
    assert.ok(found, `tool ${name} is listed`);
    return found;
  };

  it('lists exactly the catalog tools', () => {
    assert.deepEqual(tools.map((candidate) => candidate.name).sort(), [...TOOL_NAMES].sort());
  });

  it('describes every input field of every tool, and publishes no output schema (the text says it)', () => {
    for (const { name, inputSchema, outputSchema, description, title } of tools) {
      assert.ok(title && description && description.length > 60, `${name} has a title and a real description`);
      assert.equal(inputSchema.type, 'object');
      for (const [field, schema] of Object.entries(inputSchema.properties ?? {})) {
        const text = (schema as { description?: string }).description;
        assert.ok(text && text.length > 10, `${name}.${field} is described`);
      }
      // Every byte of tools/list is read before any call; structuredContent is still given.
      assert.equal(outputSchema, undefined, `${name} output schema`);
    }
  });

  it('search_sounds takes q, tags, limit and max_duration as the API document says, plus the REST filters', () => {
    const { inputSchema } = tool('search_sounds');
    assert.deepEqual(
      Object.keys(inputSchema.properties ?? {}).sort(),
      [
        'category',
        'cursor',
        'facets',
        'limit',
        'loop',
        'max_duration',
        'max_lufs',
        'max_onset_ms',
        'min_duration',
        'min_lufs',
        'order',
        'page',
        'q',
        'sort',
        'tags',
        'detail',
      ].sort(),
    );
    assert.deepEqual(inputSchema.required ?? [], [], 'every argument is optional');
    const tags = inputSchema.properties?.tags as { anyOf: Array<{ type: string }> };
    assert.deepEqual(
      tags.anyOf.map((option) => option.type).sort(),
      ['array', 'string'],
      'tags: an array or a comma-separated string',
    );
    assert.equal((inputSchema.properties!.max_duration as { type: string }).type, 'number');
    assert.equal((inputSchema.properties!.loop as { type: string }).type, 'boolean');
  });

  it('the id tools require an id and nothing else; the URL tools may ask for a rendition', () => {
    for (const name of ['get_sound', 'preview_sound', 'get_stream_url', 'get_download_url']) {
      const { inputSchema } = tool(name);
      assert.deepEqual(
        Object.keys(inputSchema.properties ?? {}),
        name.endsWith('_url') ? ['id', 'loudness', 'trim', 'format', 'sample_rate', 'channels', 'bit_depth'] : ['id'],
      );
      assert.deepEqual(inputSchema.required, ['id']);
    }
  });

  it(
    'annotates every tool as read-only and closed-world, idempotent except the counted downloads (one sound, a ' +
      'pack)',
    () => {
      for (const { name, annotations } of tools) {
        assert.equal(annotations?.readOnlyHint, true, `${name} is read-only`);
        assert.equal(annotations?.openWorldHint, false, `${name} is closed-world`);
        assert.equal(
          annotations?.idempotentHint,
          name !== 'get_download_url' && name !== 'get_pack_url',
          `${name} idempotentHint`,
        );
      }
    },
  );

  it('tells the agent what the measured fields are for, once, and where to read it from search', () => {
    const { description = '' } = tool('get_sound');
    for (const field of ['onset_ms', 'tail_ms', 'integrated_lufs', 'true_peak_db']) {
      assert.match(description, new RegExp(field), `get_sound explains ${field}`);
    }
    assert.match(description, /trim/);
    assert.match(description, /match levels/);
    assert.match(tool('search_sounds').description ?? '', /as get_sound explains/);
    assert.match(tool('get_download_url').description ?? '', /counts one download/);
    assert.match(tool('get_stream_url').description ?? '', /no download is counted/);
  });

  it('introduces itself with instructions that mention the quota, previews and resources', () => {
    assert.equal(client.getServerVersion()?.name, 'sound-catalog');
    assert.match(client.getInstructions() ?? '', /daily quota/);
    assert.match(client.getInstructions() ?? '', /preview_sound/);
    assert.match(client.getInstructions() ?? '', /sound:\/\/\{id\}/);
  });

  it('declares resources and prompts besides tools', () => {
    const capabilities = client.getServerCapabilities();
    assert.ok(capabilities?.tools && capabilities.resources && capabilities.prompts);
  });
});
