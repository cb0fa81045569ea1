import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectMcp, textOf } from '../../mcp/mcp-client.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';

type Peak = [number, number];
type WaveformBody = { data: { id: string; points: number; peaks: Peak[] } };

/** 200 stored pairs, as ingest measures them: quiet, one loud hit at pair 50, quiet again. */
const STORED: Peak[] = Array.from(
  { length: 200 },
  (_, i): Peak => (i === 50 ? [-0.9, 0.95] : [-(i % 10) / 100 + 0, (i % 7) / 100]),
);

describe('waveform (extension): GET /api/v1/sounds/{id}/waveform and get_waveform', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  const waveform = async (query: string, soundId = id) => {
    const response = await server.get(`/api/v1/sounds/${soundId}/waveform${query}`, { key });
    assert.equal(response.status, 200, query);
    return ((await response.json()) as WaveformBody).data;
  };

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    ({ id } = await addSound(server.services, { name: 'Hit', waveform: STORED }));
  });
  after(() => server.close());

  test('waveform.default: the 200 measured pairs, unchanged', async () => {
    assert.deepEqual(await waveform(''), { id, points: 200, peaks: STORED });
  });

  test('waveform.fewer: merged columns keep every extreme', async () => {
    const { points, peaks } = await waveform('?points=16');
    assert.equal(points, 16);
    assert.equal(peaks.length, 16);
    // 12.5 stored pairs per column: column 4 covers pairs 50 to 61, the loud hit.
    assert.deepEqual(peaks[4], [-0.9, 0.95]);
    assert.deepEqual(peaks[0], [-0.09, 0.06]);
    for (const [low, high] of peaks) assert.ok(low >= -1 && low <= high && high <= 1);
  });

  test('waveform.more: more columns repeat the measured pairs, inventing no detail', async () => {
    const { points, peaks } = await waveform('?points=2000');
    assert.equal(points, 2000);
    peaks.forEach((peak, column) => assert.deepEqual(peak, STORED[Math.floor(column / 10)]));
  });

  test('waveform.clamped: out-of-range or unreadable point counts are clamped, never refused', async () => {
    assert.equal((await waveform('?points=3')).points, 16);
    assert.equal((await waveform('?points=-40')).points, 16);
    assert.equal((await waveform('?points=99999')).points, 2000);
    assert.equal((await waveform('?points=lots')).points, 200);
    assert.equal((await waveform('?points=')).points, 200);
    assert.equal((await waveform('?points=64&colour=red')).points, 64);
  });

  test('waveform.unmeasured: a sound without stored peaks answers no columns', async () => {
    const { id: silent } = await addSound(server.services, { name: 'Unmeasured' });
    await server.services.database.db.updateTable('sounds').set({ waveform: null }).where('id', '=', silent).execute();
    assert.deepEqual(await waveform('', silent), { id: silent, points: 0, peaks: [] });
  });

  test(
    'waveform.errors: 404 for an unknown sound, 401 without ' + 'a key, 403 on the free plan; each call counts once',
    async () => {
      const missing = await server.get('/api/v1/sounds/no-such-sound/waveform', { key });
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), { error: 'Sound no-such-sound not found' });
      assert.equal((await server.get(`/api/v1/sounds/${id}/waveform`)).status, 401);
      const free = await server.account('free');
      assert.equal((await server.get(`/api/v1/sounds/${id}/waveform`, { key: free.key })).status, 403);
      const first = await server.get(`/api/v1/sounds/${id}/waveform`, { key });
      const second = await server.get(`/api/v1/sounds/${id}/waveform?points=20`, { key });
      assert.equal(
        Number(second.headers.get('x-ratelimit-remaining')),
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      );
    },
  );

  test('waveform.mcp: get_waveform gives the same data and sketches the shape in its text', async () => {
    const client: Client = await connectMcp(server, key);
    try {
      const result = await callTool(client, 'get_waveform', { id, points: 48 });
      assert.notEqual(result.isError, true, textOf(result));
      assert.deepEqual(result.structuredContent, await waveform('?points=48'));
      const shape = /Shape: (\S+)$/.exec(textOf(result))![1]!;
      assert.equal([...shape].length, 48);
      assert.equal([...shape].filter((level) => level === '█').length, 1, 'one loud column, the hit');
      const missing = await callTool(client, 'get_waveform', { id: 'no-such-sound' });
      assert.equal(missing.isError, true);
      assert.match(textOf(missing), /Sound no-such-sound not found/);
      const refused = await callTool(client, 'get_waveform', { id, points: 5000 });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /<=2000 at points/);
    } finally {
      await client.close();
    }
  });
});
