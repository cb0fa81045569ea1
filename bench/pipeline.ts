/**
 * The audio pipeline end to end:
 *
 *   node --import tsx bench/pipeline.ts [seedCount ...]
 *
 * 1. Measuring a delivered MP3 (decode + loudness + true peak + timing) against
 *    `ffmpeg -nostats -i FILE -af ebur128=peak=true -f null -` on the same MP3s, runs alternating,
 *    medians of 5.
 * 2. Ingest throughput: a folder of WAV files through `ingestPaths` (worker threads, the real
 *    database and file store), in sounds per minute.
 * 3. Seed time for each count given (default 1000), through the real pipeline.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeChunks } from '../src/audio/analyze/index.ts';
import { openAudioStream } from '../src/audio/decode/index.ts';
import { encodeMp3 } from '../src/audio/encode/index.ts';
import { loadConfig } from '../src/config.ts';
import { ingestPaths, seedCatalog } from '../src/ingest/pipeline.ts';
import { createServices } from '../src/wiring.ts';
import { chirp, mixInto, noise, note } from '../test/audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../test/audio/helpers/wav.ts';

const REPEATS = 5;
const RATE = 44_100;
const seedCounts = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const work = await mkdtemp(path.join(tmpdir(), 'sound-catalog-pipeline-'));

function programme(seconds: number, seed: number): Float32Array {
  const out = noise(seed, -36, seconds * RATE, 0.9);
  for (let beat = 0; beat < seconds * 2; beat++) {
    mixInto(out, note(RATE, 110 * 2 ** (((beat * 5 + seed) % 24) / 12), -16, 0.6), Math.floor((beat * RATE) / 2));
  }
  return out;
}

// 1. Measuring MP3s against ffmpeg.
console.log('## Measuring a delivered MP3: ours vs ffmpeg ebur128\n');
console.log('| file | seconds | ours ms | ours x rt | ffmpeg ms | ours / ffmpeg |');
console.log('|---|---:|---:|---:|---:|---:|');
let oursTotal = 0;
let ffmpegTotal = 0;
for (const [name, channels] of [
  ['programme-60s-stereo', [programme(60, 1), programme(60, 2)]],
  ['programme-60s-mono', [programme(60, 3)]],
  ['sweep-30s-stereo', [chirp(RATE, 40, 16000, -10, 30), chirp(RATE, 16000, 40, -10, 30)]],
] as const) {
  const file = path.join(work, `${name}.mp3`);
  await writeFile(file, await encodeMp3({ sampleRate: RATE, channels: channels as unknown as Float32Array[] }));
  const seconds = channels[0]!.length / RATE;
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    let start = performance.now();
    spawnSync('ffmpeg', ['-nostats', '-i', file, '-af', 'ebur128=peak=true', '-f', 'null', '-'], { stdio: 'ignore' });
    theirs.push(performance.now() - start);
    start = performance.now();
    const stream = await openAudioStream(await readFile(file));
    await analyzeChunks(
      stream.sampleRate,
      stream.channelCount,
      (async function* () {
        for await (const chunk of stream.chunks) yield chunk.channels;
      })(),
    );
    ours.push(performance.now() - start);
  }
  oursTotal += median(ours);
  ffmpegTotal += median(theirs);
  console.log(
    `| ${name} | ${seconds} | ${median(ours).toFixed(0)} | ${((seconds * 1000) / median(ours)).toFixed(0)}x ` +
      `| ${median(theirs).toFixed(0)} | ${(median(ours) / median(theirs)).toFixed(2)} |`,
  );
}
console.log(
  `| **all** | | ${oursTotal.toFixed(0)} | | ${ffmpegTotal.toFixed(0)} | ${(oursTotal / ffmpegTotal).toFixed(2)} |\n`,
);

// 2. Ingest throughput.
const folder = path.join(work, 'wavs');
const FILES = 60;
await import('node:fs/promises').then((fs) => fs.mkdir(folder));
let audioSeconds = 0;
for (let i = 0; i < FILES; i++) {
  const seconds = 2 + (i % 9);
  audioSeconds += seconds;
  const stereo = i % 2 === 0;
  const channels = stereo ? [programme(seconds, i), programme(seconds, i + 100)] : [programme(seconds, i)];
  await writeFile(path.join(folder, `sound-${i}.wav`), encodeWavFloat32({ sampleRate: RATE, channels }));
}
{
  const services = await createServices(
    loadConfig({ SOUND_CATALOG_DATA: path.join(work, 'ingest-data'), SOUND_CATALOG_DEMO: '0' }),
  );
  const start = performance.now();
  const summary = await ingestPaths(services, [folder]);
  const seconds = (performance.now() - start) / 1000;
  await services.close();
  console.log(
    `## Ingest\n\n${FILES} WAV files (44.1 kHz, half stereo, 2-10 ` +
      `s, ${audioSeconds} s of audio): ${seconds.toFixed(1)} s, ` +
      `${((summary.added / seconds) * 60).toFixed(0)} sounds/minute, ${(audioSeconds / seconds).toFixed(0)}x ` +
      `real time (added ${summary.added}, failed ${summary.failed.length})\n`,
  );
}

// 3. Seed.
console.log('## Seed\n');
for (const count of seedCounts.length > 0 ? seedCounts : [1000]) {
  const services = await createServices(
    loadConfig({ SOUND_CATALOG_DATA: path.join(work, `seed-${count}`), SOUND_CATALOG_DEMO: '0' }),
  );
  const start = performance.now();
  const { added } = await seedCatalog(services, { count, seed: 'sound-catalog' });
  const seconds = (performance.now() - start) / 1000;
  const total = await services.database.db
    .selectFrom('sounds')
    .select((eb) => eb.fn.sum<number>('duration').as('s'))
    .executeTakeFirstOrThrow();
  await services.close();
  console.log(
    `seed ${count}: ${seconds.toFixed(1)} s (${added} added, ${Number(total.s).toFixed(0)} ` +
      `s of audio, average ${(Number(total.s) / count).toFixed(1)} s)`,
  );
}
console.log(
  `\nload average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`,
);
await rm(work, { recursive: true, force: true });
