import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
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
    const before = Number(
      (await server.get('/api/v1/sounds/popular?limit=1', { key })).headers.get('x-ratelimit-remaining'),
    );
    const result = await callTool(client, 'get_pack_url', { ids });
    assert.equal(result.isError, undefined, textOf(result));
    const data = result.structuredContent as { download_url: string; sounds: number; estimated_bytes: number };
    assert.equal(data.sounds, 2);
    assert.match(textOf(result), /Pack of 2 sounds/);
    const after = Number(
      (await server.get('/api/v1/sounds/popular?limit=1', { key })).headers.get('x-ratelimit-remaining'),
    );
    // The tool call and one more request for the second sound, then the popular call itself.
    assert.equal(before - after, 3);
    const zip = await fetch(data.download_url);
    assert.equal(zip.status, 200);
    const bytes = Buffer.from(await zip.arrayBuffer());
    assert.equal(bytes.readUInt32LE(0), 0x04034b50, 'a ZIP local header first');
    assert.ok(bytes.includes(Buffer.from(`glass-break-${ids[0]}.mp3`)));
  });

  test(
    'with a format: the URL carries it, the ZIP holds .wav files at ' +
      'the rate and channels asked, and its fetch pays for the renditions',
    async () => {
      const { mp3, measurements } = await encodeAndMeasure(synthesizeSound('pack-mcp', 1).audio);
      const real = await addSound(server.services, { name: 'Coin Pickup', bytes: mp3, ...measurements });
      const remaining = async () =>
        Number((await server.get('/api/v1/sounds/popular?limit=1', { key })).headers.get('x-ratelimit-remaining'));
      const before = await remaining();
      const result = await callTool(client, 'get_pack_url', {
        ids: [real.id],
        format: 'wav',
        sample_rate: 16000,
        channels: 1,
      });
      assert.equal(result.isError, undefined, textOf(result));
      assert.match(textOf(result), /Pack of 1 sounds \(WAV files in a ZIP/);
      const { download_url: url } = result.structuredContent as { download_url: string };
      assert.match(url, /&format=wav&sample_rate=16000&channels=1&account=/);
      assert.match(textOf(result), /3 more for its renditions when fetched now/);
      // The call only; then the popular call.
      assert.equal(before - (await remaining()), 1 + 1);
      const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
      // The fetch paid for the rendition it made: 10 per started 10 minutes, x0.5 for 16 kHz, x0.5 for mono, rounded
      // up.
      assert.equal(before - (await remaining()), 1 + 1 + 3 + 1);
      const name = Buffer.from(`coin-pickup-${real.id}.wav`);
      assert.ok(bytes.includes(name), 'the entry is named .wav');
      // The entry's data comes after its local header and name (stored, so as made): a RIFF WAVE at 16 kHz mono.
      const data = bytes.indexOf(name) + name.length;
      const wav = bytes.subarray(bytes.indexOf(Buffer.from('RIFF'), data));
      assert.equal(wav.toString('latin1', 8, 12), 'WAVE');
      assert.equal(wav.readUInt16LE(22), 1, 'channels');
      assert.equal(wav.readUInt32LE(24), 16000, 'sample rate');
    },
  );

  test('a format combination no encoder makes is refused, naming the argument', async () => {
    const opus = await callTool(client, 'get_pack_url', { ids, format: 'opus', sample_rate: 44100 });
    assert.equal(opus.isError, true);
    assert.match(textOf(opus), /sample_rate/);
    const depth = await callTool(client, 'get_pack_url', { ids, format: 'ogg', bit_depth: 24 });
    assert.equal(depth.isError, true);
    assert.match(textOf(depth), /bit_depth/);
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
