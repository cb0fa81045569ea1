import { soundTools } from '../../../src/mcp/tools/index.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { callTool, connectMcp, textOf } from '../mcp-client.ts';

/** Each bad call, and what its error must name so an agent can fix the call. */
const BAD_CALLS: Array<{ tool: string; args: Record<string, unknown>; says: RegExp }> = [
  { tool: 'search_sounds', args: { limit: 0 }, says: />=1 at limit/ },
  { tool: 'search_sounds', args: { limit: 101 }, says: /<=100 at limit/ },
  { tool: 'search_sounds', args: { limit: 'ten' }, says: /expected number.* at limit/ },
  { tool: 'search_sounds', args: { page: 1.5 }, says: /expected int.* at page/ },
  { tool: 'search_sounds', args: { max_duration: -1 }, says: />=0 at max_duration/ },
  {
    tool: 'search_sounds',
    args: { min_duration: 3, max_duration: 1 },
    says: /must not be smaller than min_duration at max_duration/,
  },
  {
    tool: 'search_sounds',
    args: { category: 'jazz' },
    says: /expected one of SFX, MUSIC, LOFI, AMBIENT \(any case\), or an array of them at category/,
  },
  { tool: 'search_sounds', args: { category: ['sfx', 'jazz'] }, says: /expected one of SFX, MUSIC, LOFI, AMBIENT/ },
  {
    tool: 'search_sounds',
    args: { sort: 'loudness' },
    says: /"downloads"\|"created_at"\|"duration"\|"name"\|"relevance".* at sort/,
  },
  { tool: 'search_sounds', args: { max_onset_ms: -5 }, says: />=0 at max_onset_ms/ },
  { tool: 'search_sounds', args: { min_lufs: -120 }, says: />=-100 at min_lufs/ },
  {
    tool: 'search_sounds',
    args: { min_lufs: -10, max_lufs: -20 },
    says: /must not be smaller than min_lufs at max_lufs/,
  },
  { tool: 'search_sounds', args: { facets: ['colour'] }, says: /"category"\|"tags".* at facets/ },
  {
    tool: 'search_sounds',
    args: { tags: 7 },
    says: /expected an array of at most 20 strings or one comma-separated string.* at tags/,
  },
  { tool: 'search_sounds', args: { colour: 'red' }, says: /Unrecognized key: "colour"/ },
  { tool: 'get_sound', args: {}, says: /expected string.* at id/ },
  { tool: 'get_sound', args: { id: 42 }, says: /expected string.* at id/ },
  { tool: 'get_download_url', args: { id: '' }, says: />=1 characters at id/ },
  {
    tool: 'get_stream_url',
    args: { id: 'x', format: 'aiff' },
    says: /must be one of mp3, wav, flac, ogg, opus at format/,
  },
  {
    tool: 'get_stream_url',
    args: { id: 'x', sample_rate: 7999 },
    says: /must be a whole number of Hz, 8000 to 192000 at sample_rate/,
  },
  { tool: 'get_download_url', args: { id: 'x', channels: 3 }, says: /must be 1 or 2 at channels/ },
  {
    tool: 'get_download_url',
    args: { id: 'x', format: 'ogg', bit_depth: 24 },
    says: /applies to wav and flac only, not ogg at bit_depth/,
  },
  {
    tool: 'get_pack_url',
    args: { ids: ['x'], format: 'opus', sample_rate: 44100 },
    says: /opus is made at 48000 Hz, not 44100 at sample_rate/,
  },
  { tool: 'list_popular', args: { limit: 500 }, says: /<=100 at limit/ },
  { tool: 'list_samples', args: { limit: 13 }, says: /<=12 at limit/ },
];

describe('mcp.arguments: bad arguments get a clear error result, never a crash', () => {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = await startServer();
    const { key } = await server.account('pro');
    await addSound(server.services, { name: 'Laser Zap', duration: 0.4, tags: ['laser'] });
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  for (const { tool, args, says } of BAD_CALLS) {
    it(`${tool} ${JSON.stringify(args)} is refused, naming the field`, async () => {
      const result = await callTool(client, tool, args);
      assert.equal(result.isError, true);
      assert.match(textOf(result), new RegExp(`Invalid arguments for tool ${tool}`));
      assert.match(textOf(result), says);
    });
  }

  it('an unknown tool is an error result too', async () => {
    const result = await callTool(client, 'delete_everything', {});
    assert.equal(result.isError, true);
    assert.match(textOf(result), /Tool delete_everything not found/);
  });

  it('the session works as before after every refusal', async () => {
    assert.equal((await client.listTools()).tools.length, soundTools.length);
    const result = await callTool(client, 'search_sounds', { q: 'laser', category: 'sfx' });
    assert.notEqual(result.isError, true);
    assert.equal((result.structuredContent as { data: unknown[] }).data.length, 1);
  });
});
