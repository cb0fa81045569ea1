import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeAudio } from '../../../src/audio/analyze/index.ts';
import { up as roundLoudness } from '../../../src/db/migrations/008_round_loudness.ts';
import { startServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';

const twoDecimals = /^-?\d+(\.\d{1,2})?$/;

test('loudness.rounded: the analyzer states loudness and true peak to 0.01 dB', () => {
  const sampleRate = 48000;
  const tone = Float32Array.from(
    { length: sampleRate * 3 },
    (_, i) => 0.3137 * Math.sin((2 * Math.PI * 997 * i) / sampleRate),
  );
  const { loudness } = analyzeAudio({ sampleRate, channels: [tone, tone] });
  assert.match(String(loudness.integrated_lufs), twoDecimals);
  assert.match(String(loudness.true_peak_db), twoDecimals);
});

test('loudness.rounded: migration 008 rounds what earlier releases stored, and the API says it so', async () => {
  const server = await startServer();
  try {
    const { key } = await server.account('pro');
    const { id } = await addSound(server.services, {
      loudness: { integrated_lufs: -18.165362923327805, true_peak_db: -1.0049999 },
    });
    const silent = await addSound(server.services, {
      name: 'Silence',
      loudness: { integrated_lufs: null, true_peak_db: null },
    });
    await roundLoudness(server.services.database.db);
    assert.deepEqual((await server.services.catalog.findById(id))?.loudness, {
      integrated_lufs: -18.17,
      true_peak_db: -1,
    });
    const body = (await (await server.get(`/api/v1/sounds/${id}`, { key })).json()) as { data: { loudness: unknown } };
    assert.deepEqual(body.data.loudness, { integrated_lufs: -18.17, true_peak_db: -1 });
    assert.deepEqual((await server.services.catalog.findById(silent.id))?.loudness, {
      integrated_lufs: null,
      true_peak_db: null,
    });
  } finally {
    await server.close();
  }
});
