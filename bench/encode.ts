/**
 * MP3 encode and decode speed, in multiples of real time (medians of several runs), with
 * `ffmpeg -i F -f null -` on the same files as the decoding reference. Writes
 * bench/results/encode.md. Run: node --import tsx bench/encode.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudio } from '../src/audio/decode/index.ts';
import { encodeMp3 } from '../src/audio/encode/index.ts';
import type { PcmAudio } from '../src/audio/types.ts';

const SECONDS = 60;
const REPETITIONS = 7;
const COMMAND = 'node --import tsx bench/encode.ts';

/** Something LAME has to work on: a chord with vibrato, a noise hi-hat and decaying plucks. */
function musicLike(sampleRate: number, channelCount: number): PcmAudio {
  const length = SECONDS * sampleRate;
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  const channels = Array.from({ length: channelCount }, (_, c) => {
    const out = new Float32Array(length);
    for (let i = 0; i < length; i++) {
      const t = i / sampleRate;
      const beat = t % 0.5;
      const chord = [220, 277.2, 329.6].reduce(
        (sum, f) => sum + Math.sin(2 * Math.PI * f * (1 + c * 0.002) * t + 0.3 * Math.sin(5 * t)),
        0,
      );
      const pluck = Math.sin(2 * Math.PI * 880 * t) * Math.exp(-beat * 12);
      const hat = random() * Math.exp(-(t % 0.25) * 60);
      out[i] = 0.08 * chord + 0.2 * pluck + 0.15 * hat;
    }
    return out;
  });
  return { sampleRate, channels };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
}

/** ffmpeg's own decode time (-benchmark rtime) and the whole command's wall time, process start included. */
function ffmpegNull(path: string): { rtime: number; wall: number } {
  const started = performance.now();
  const result = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-benchmark', '-i', path, '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  const wall = (performance.now() - started) / 1000;
  const rtime = Number(/rtime=([\d.]+)s/.exec(result.stderr)?.[1] ?? Number.NaN);
  return { rtime, wall };
}

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'bench-encode-'));
const rows: string[] = [];
try {
  const configurations = [
    [44100, 1],
    [44100, 2],
    [48000, 1],
    [48000, 2],
    [96000, 2],
  ] as const;
  for (const [sampleRate, channelCount] of configurations) {
    const audio = musicLike(sampleRate, channelCount);
    // One unmeasured run each: V8 first runs WASM through its baseline compiler, and a
    // long-running service only pays that once.
    let mp3 = await encodeMp3(audio);
    await decodeAudio(mp3);
    const encodeTimes: number[] = [];
    for (let r = 0; r < REPETITIONS; r++) encodeTimes.push(await timed(async () => (mp3 = await encodeMp3(audio))));
    const decodeTimes: number[] = [];
    for (let r = 0; r < REPETITIONS; r++) decodeTimes.push(await timed(() => decodeAudio(mp3)));
    const path = join(dir, `${sampleRate}-${channelCount}.mp3`);
    writeFileSync(path, mp3);
    const ffmpeg = hasFfmpeg ? Array.from({ length: REPETITIONS }, () => ffmpegNull(path)) : [];
    const x = (seconds: number) => (SECONDS / seconds).toFixed(0);
    const ffRtime = ffmpeg.length ? x(median(ffmpeg.map((f) => f.rtime))) : 'n/a';
    const ffWall = ffmpeg.length ? x(median(ffmpeg.map((f) => f.wall))) : 'n/a';
    const row =
      `| ${sampleRate} | ${channelCount === 1 ? 'mono' : 'stereo'} | ${x(median(encodeTimes))}x | ` +
      `${Math.round((mp3.length * 8) / SECONDS / 1000)} | ${x(median(decodeTimes))}x | ${ffRtime}x | ${ffWall}x |`;
    rows.push(row);
    console.log(row);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ffmpegVersion = hasFfmpeg
  ? execFileSync('ffmpeg', ['-version']).toString().split('\n')[0]
  : 'ffmpeg not installed';
const report = `# MP3 encode and decode speed

Command: \`${COMMAND}\` (from the repository root)

Machine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}, ${ffmpegVersion}.
Date: ${new Date().toISOString().slice(0, 10)}

Each figure is the median of ${REPETITIONS} runs, after one warm-up run, on a ${SECONDS} s synthetic
music-like signal, in multiples of real time (60 s of audio in 1 s = 60x). A cold first run in a
fresh process is about half as fast (V8 tiers the WASM up). Encoding is \`encodeMp3\` at its default (LAME
VBR V2, WASM), from planar float to finished file with its Info tag; the 96 kHz row includes
resampling to 48 kHz. Decoding is \`decodeAudio\` of
that MP3 (mpg123 WASM, gapless trimming, bytes already in memory). ffmpeg decodes the same file
with \`ffmpeg -benchmark -i F -f null -\`: "rtime" is ffmpeg's own decode time, "wall" the whole
command including process start-up. Compare columns within one run: on this shared 2-core
machine, with other jobs running, whole runs differed by up to 2x.

| rate (Hz) | channels | encode | MP3 kbit/s | decode (ours) | ffmpeg decode (rtime) | ffmpeg command (wall) |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
writeFileSync(new URL('./results/encode.md', import.meta.url), report);
console.log('\nwritten to bench/results/encode.md');
