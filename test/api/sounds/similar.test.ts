import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { synthesizeSound } from '../../../src/audio/synth/index.ts';
import { contentHashOf } from '../../../src/catalog/writer.ts';
import { encodeAndMeasure } from '../../../src/ingest/measure.ts';
import { callTool, connectMcp, textOf } from '../../mcp/mcp-client.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';

type Similar = { id: string; name: string; category: string; similarity: number; download_url?: string };
type Body = { data: Similar[]; pagination: { page: number; limit: number; total: number; totalPages: number } };

/** Demo sounds of four families (seed "similar"): their MP3s are made and measured as ingest does. */
const FAMILIES = {
  laser: [14, 26, 37, 46],
  footsteps: [17, 29, 33, 94],
  rain: [9, 43, 51, 123],
  wind: [40, 68, 182, 203],
};

describe('similar (extension): GET /api/v1/sounds/{id}/similar and find_similar_sounds', () => {
  let server: TestServer;
  let key: string;
  const family = new Map<string, string>();
  const idsOf: Record<string, string[]> = {};
  const similar = async (id: string, query = '') => {
    const response = await server.get(`/api/v1/sounds/${id}/similar${query}`, { key });
    assert.equal(response.status, 200, `${id}${query}`);
    return (await response.json()) as Body;
  };

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    for (const [name, indexes] of Object.entries(FAMILIES)) {
      for (const index of indexes) {
        const sound = synthesizeSound('similar', index);
        const { mp3, measurements } = await encodeAndMeasure(sound.audio);
        const { id } = await server.services.catalogWriter.put({
          contentHash: contentHashOf(mp3),
          mp3,
          metadata: {
            name: sound.name,
            description: sound.description,
            tags: sound.tags,
            category: sound.category,
            license: 'CC0',
            sample: false,
          },
          measurements,
        });
        family.set(id, name);
        (idsOf[name] ??= []).push(id);
      }
    }
  });
  after(() => server.close());

  test(
    "similar.families: a laser's nearest sounds are lasers, " + "footsteps' are footsteps, an ambience's are ambiences",
    async () => {
      let sameFamily = 0;
      let asked = 0;
      for (const [name, ids] of Object.entries(idsOf)) {
        for (const id of ids) {
          const { data } = await similar(id, '?limit=3');
          assert.equal(data.length, 3);
          sameFamily += data.filter((sound) => family.get(sound.id) === name).length;
          asked += data.length;
          if (name === 'rain' || name === 'wind') {
            assert.deepEqual(
              data.map((sound) => sound.category),
              ['AMBIENT', 'AMBIENT', 'AMBIENT'],
              `${name} ${id}`,
            );
          }
        }
      }
      assert.ok(sameFamily / asked >= 0.8, `precision at 3 over the four families: ${sameFamily}/${asked}`);
    },
  );

  test('similar.shape: full sounds with a similarity from 1 down, highest first, never the sound itself', async () => {
    const id = idsOf.laser![0]!;
    const body = await similar(id);
    assert.equal(body.data.length, 10, 'default limit 10');
    assert.deepEqual(body.pagination, { page: 1, limit: 10, total: 10, totalPages: 1 });
    assert.ok(body.data.every((sound) => sound.id !== id));
    assert.ok(body.data.every((sound) => sound.similarity > 0 && sound.similarity <= 1));
    const similarities = body.data.map((sound) => sound.similarity);
    assert.deepEqual(
      similarities,
      [...similarities].sort((a, b) => b - a),
    );
    assert.match(String(body.data[0]!.download_url), /d=download/);
    const full = (await (await server.get(`/api/v1/sounds/${body.data[0]!.id}`, { key })).json()) as {
      data: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(body.data[0]!).sort(), [...Object.keys(full.data), 'similarity'].sort());
  });

  test('similar.limit: out-of-range or unreadable limits are clamped, never refused', async () => {
    const id = idsOf.rain![0]!;
    assert.equal((await similar(id, '?limit=0')).data.length, 1);
    assert.equal((await similar(id, '?limit=-3')).data.length, 1);
    assert.equal((await similar(id, '?limit=lots')).data.length, 10);
    const all = await similar(id, '?limit=500');
    assert.equal(all.pagination.limit, 50);
    assert.equal(all.data.length, 15, 'every other described sound');
  });

  test(
    'similar.new: a sound added a moment ago is a ' + 'neighbour at once, and one without descriptors has none',
    async () => {
      const rain = synthesizeSound('similar', 9);
      const louder = { ...rain.audio, channels: rain.audio.channels.map((channel) => channel.map((x) => x * 0.9)) };
      const { mp3, measurements } = await encodeAndMeasure(louder);
      const { id } = await server.services.catalogWriter.put({
        contentHash: contentHashOf(mp3),
        mp3,
        measurements,
        metadata: {
          name: 'Light Rain Again',
          description: null,
          tags: ['rain'],
          category: 'AMBIENT',
          license: 'CC0',
          sample: false,
        },
      });
      const { data } = await similar(idsOf.rain![0]!, '?limit=1');
      assert.equal(data[0]!.id, id, 'the same rain a little quieter is the nearest');
      assert.ok(data[0]!.similarity > 0.9);
      const { id: undescribed } = await addSound(server.services, { name: 'Not Described' });
      assert.deepEqual(await similar(undescribed), {
        data: [],
        pagination: { page: 1, limit: 10, total: 0, totalPages: 0 },
      });
      assert.ok((await similar(idsOf.wind![0]!, '?limit=50')).data.every((sound) => sound.id !== undescribed));
    },
  );

  test(
    'similar.errors: 404 for an unknown sound, 401 without ' + 'a key, 403 on the free plan; each call counts once',
    async () => {
      const missing = await server.get('/api/v1/sounds/no-such-sound/similar', { key });
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), { error: 'Sound no-such-sound not found' });
      const id = idsOf.wind![0]!;
      assert.equal((await server.get(`/api/v1/sounds/${id}/similar`)).status, 401);
      const free = await server.account('free');
      assert.equal((await server.get(`/api/v1/sounds/${id}/similar`, { key: free.key })).status, 403);
      const first = await server.get(`/api/v1/sounds/${id}/similar`, { key });
      const second = await server.get(`/api/v1/sounds/${id}/similar?limit=2`, { key });
      assert.equal(
        Number(second.headers.get('x-ratelimit-remaining')),
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      );
    },
  );

  test('similar.mcp: find_similar_sounds answers as REST does, with the similarity in its text', async () => {
    const client: Client = await connectMcp(server, key);
    try {
      const id = idsOf.footsteps![0]!;
      const result = await callTool(client, 'find_similar_sounds', { id, limit: 4, detail: 'full' });
      assert.notEqual(result.isError, true, textOf(result));
      assert.deepEqual(stripSignatures(result.structuredContent), stripSignatures(await similar(id, '?limit=4')));
      assert.match(
        textOf(result),
        /^4 similar sounds in all; page 1 of 1, 4 shown \(4 per page\):\n- .* · similarity 0\.\d+/,
      );
      const missing = await callTool(client, 'find_similar_sounds', { id: 'no-such-sound' });
      assert.equal(missing.isError, true);
      assert.match(textOf(missing), /Sound no-such-sound not found/);
      const refused = await callTool(client, 'find_similar_sounds', { id, limit: 51 });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /<=50 at limit/);
    } finally {
      await client.close();
    }
  });
});

/** An answer without its signatures, which change with the second. */
function stripSignatures(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(/exp=\d+&kid=[\w-]+&sig=[\w-]+/g, ''));
}
