import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Piscina } from 'piscina';
import type { Job, JobResult } from '../../src/audio/jobs.ts';
import { writeLongMp3 } from './helpers/long-mp3.ts';

/** The worker's JavaScript heap: far below the 1.4 GB an hour of decoded stereo 48 kHz audio takes as 32-bit floats. */
const HEAP_MB = 64;
/**
 * The whole process's peak resident memory: this test's own process, the worker and its WASM
 * memories (mpg123, LAME). V8's heap limit counts neither the WASM memories nor the ArrayBuffers
 * that hold decoded audio, so the process's peak RSS is what shows that nothing grows with the sound.
 */
const PEAK_RSS_MB = 512;

/**
 * Minutes of CPU: `.ci/run` runs it in its first pass only (it touches no database), and sets this to 0 for the others.
 */
const skip =
  process.env.SOUND_CATALOG_LONG_TESTS === '0'
    ? 'SOUND_CATALOG_LONG_TESTS=0: the hour-long rendition ran in an earlier pass'
    : false;

test('render.long: a 60-minute stereo 48 kHz loudness rendition is made ' +
  'by the render job in a worker with a 64 MB heap, in bounded memory', {
  timeout: 60 * 60_000,
  skip,
}, async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'render-long-'));
  const pool = new Piscina<Job, JobResult>({
    filename: new URL('../../src/ingest/worker-entry.js', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 16 },
    execArgv: [],
  });
  try {
    const sourcePath = path.join(folder, 'hour.mp3');
    const outputPath = path.join(folder, 'rendition.mp3');
    await writeLongMp3(sourcePath, 60);
    const started = performance.now();
    const result = await pool.run({ id: 1, kind: 'render', sourcePath, outputPath, spec: { loudness: -20 } });
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    assert.ok(result.ok && result.kind === 'render', JSON.stringify(result));
    const { duration, loudness } = result.measurements;
    console.log(
      `60-minute rendition: ${seconds.toFixed(0)} s, peak RSS of the process ` +
        `${peakRssMb.toFixed(0)} MB, ${JSON.stringify(result.measurements)}`,
    );
    assert.ok(duration >= 3600 && duration < 3610, `${duration} s`);
    assert.ok(Math.abs(loudness.integrated_lufs! + 20) <= 0.5, `${loudness.integrated_lufs} LUFS`);
    assert.ok(loudness.true_peak_db! <= -1, `${loudness.true_peak_db} dBTP`);
    // VBR V2 of noise and a tone: well over 64 kbit/s for the hour, so the file is whole.
    assert.ok((await stat(outputPath)).size > (3600 * 64_000) / 8, 'the whole hour is in the file');
    assert.ok(peakRssMb < PEAK_RSS_MB, `peak RSS ${peakRssMb} MB`);
  } finally {
    await pool.destroy();
    await rm(folder, { recursive: true, force: true });
  }
});
