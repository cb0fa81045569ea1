/**
 * Analysis speed against ffmpeg's EBU R128 meter on the same files, in the same run.
 *
 *   node --import tsx bench/analysis.ts
 *
 * Ours: read the WAV + analyzeAudio, in process. ffmpeg: the whole command of analysis.md,
 * `ffmpeg -nostats -i FILE -af ebur128=peak=true -f null -` (its process start and decoding
 * included, as a user would run it). Runs alternate so that both see the same machine load;
 * medians of REPEATS. Then an hour of stereo 48 kHz is streamed through createAnalyzer to show
 * that memory stays flat. Results go to bench/results/analysis.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeAudio, createAnalyzer } from '../src/audio/analyze/index.ts';
import type { PcmAudio } from '../src/audio/types.ts';
import { chirp, concat, mixInto, noise, note, sine } from '../test/audio/helpers/signals.ts';
import { tech3341Tones, tech3341TruePeak, TRUE_PEAK_CASES } from '../test/audio/helpers/ebu-tech3341.ts';
import { encodeWavFloat32, parseWav, writeWav } from '../test/audio/helpers/wav.ts';

const REPEATS = 5;
const FFMPEG_ARGS = (file: string) => ['-nostats', '-i', file, '-af', 'ebur128=peak=true', '-f', 'null', '-'];
const RATE = 48000;
const MINUTE = 60 * RATE;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A minute of programme-like stereo: notes, drum hits and a pad, built from the test signals. */
function musicMinute(seed: number): Float32Array {
  const out = new Float32Array(MINUTE);
  for (let bar = 0; bar < 30; bar++) {
    mixInto(out, note(RATE, 110 * 2 ** (((bar * 5 + seed) % 24) / 12), -14, 1.8), bar * 2 * RATE);
    mixInto(out, note(RATE, 220 * 2 ** (((bar * 7 + seed) % 24) / 12), -18, 0.9), bar * 2 * RATE + RATE);
    const hit = noise(seed * 100 + bar, -12, RATE / 4);
    for (let i = 0; i < hit.length; i++) hit[i] = hit[i]! * Math.exp((-30 * i) / RATE);
    mixInto(out, hit, bar * 2 * RATE + RATE / 2);
  }
  return mixInto(out, noise(seed, -40, MINUTE, 0.9), 0);
}

function writeSynthesized(dir: string): string[] {
  const files: Array<[string, Float32Array[]]> = [
    ['music-like-60s-stereo-48k.wav', [musicMinute(1), musicMinute(2)]],
    ['pink-ish-noise-60s-stereo-48k.wav', [noise(3, -20, MINUTE, 0.9), noise(4, -20, MINUTE, 0.9)]],
    ['steady-1k-tone-60s-stereo-48k.wav', [sine(RATE, 1000, -10, MINUTE), sine(RATE, 1000, -10, MINUTE)]],
    [
      'sweeps-60s-stereo-48k.wav',
      [concat(...Array.from({ length: 6 }, () => chirp(RATE, 20, 20000, -8, 10))), noise(5, -24, MINUTE)],
    ],
  ];
  return files.map(([name, channels]) => {
    const file = path.join(dir, name);
    writeFileSync(file, encodeWavFloat32({ sampleRate: RATE, channels }));
    return file;
  });
}

/** EBU Tech 3341's loudness cases 1 and 2 and its true-peak cases, at the bit depths of the EBU's files. */
function writeTech3341(dir: string): string[] {
  const files: Array<[string, PcmAudio, 16 | 24]> = [
    ['seq-3341-1-16bit.wav', tech3341Tones([[-23, 20]]), 16],
    ['seq-3341-2-16bit.wav', tech3341Tones([[-33, 20]]), 16],
    ...TRUE_PEAK_CASES.map((which): [string, PcmAudio, 16 | 24] => [
      `seq-3341-${which}-24bit.wav`,
      tech3341TruePeak(which),
      24,
    ]),
  ];
  return files.map(([name, audio, bits]) => {
    const file = path.join(dir, name);
    writeFileSync(file, writeWav({ ...audio, bits }));
    return file;
  });
}

function timeOurs(file: string): { ms: number; seconds: number } {
  const start = performance.now();
  const audio = parseWav(readFileSync(file));
  const { duration } = analyzeAudio(audio);
  return { ms: performance.now() - start, seconds: duration };
}

function timeFfmpeg(file: string): number {
  const start = performance.now();
  const result = spawnSync('ffmpeg', FFMPEG_ARGS(file), { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`ffmpeg failed on ${file}`);
  return performance.now() - start;
}

interface Row {
  file: string;
  seconds: number;
  oursMs: number;
  ffmpegMs: number;
}

function benchFile(file: string): Row {
  const ours: number[] = [];
  const theirs: number[] = [];
  let seconds = 0;
  for (let r = 0; r < REPEATS; r++) {
    theirs.push(timeFfmpeg(file));
    const run = timeOurs(file);
    ours.push(run.ms);
    seconds = run.seconds;
  }
  return { file: path.basename(file), seconds, oursMs: median(ours), ffmpegMs: median(theirs) };
}

/** An hour of stereo 48 kHz pushed in 100 ms chunks; returns time and the largest RSS growth. */
function streamOneHour(): { ms: number; rssGrowthMb: number; heapGrowthMb: number } {
  const source = [musicMinute(7), musicMinute(8)];
  const analyzer = createAnalyzer(RATE, 2);
  const chunk = RATE / 10;
  global.gc?.();
  const before = process.memoryUsage();
  let maxRss = before.rss;
  let maxHeap = before.heapUsed;
  const start = performance.now();
  for (let minute = 0; minute < 60; minute++) {
    for (let at = 0; at < MINUTE; at += chunk) analyzer.push(source.map((c) => c.subarray(at, at + chunk)));
    const now = process.memoryUsage();
    maxRss = Math.max(maxRss, now.rss);
    maxHeap = Math.max(maxHeap, now.heapUsed);
  }
  analyzer.finish();
  return {
    ms: performance.now() - start,
    rssGrowthMb: (maxRss - before.rss) / 2 ** 20,
    heapGrowthMb: (maxHeap - before.heapUsed) / 2 ** 20,
  };
}

function report(rows: Row[], stream: ReturnType<typeof streamOneHour>): string {
  const version = spawnSync('ffmpeg', ['-version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  const line = (r: Row) =>
    `| ${r.file} | ${r.seconds.toFixed(1)} | ${r.oursMs.toFixed(0)} | ` +
    `${(r.seconds / (r.oursMs / 1000)).toFixed(0)}x | ${r.ffmpegMs.toFixed(0)} | ` +
    `${(r.seconds / (r.ffmpegMs / 1000)).toFixed(0)}x | ${(r.oursMs / r.ffmpegMs).toFixed(2)} |`;
  const total = rows.reduce(
    (t, r) => ({
      ...t,
      seconds: t.seconds + r.seconds,
      oursMs: t.oursMs + r.oursMs,
      ffmpegMs: t.ffmpegMs + r.ffmpegMs,
    }),
    { file: '**all files**', seconds: 0, oursMs: 0, ffmpegMs: 0 },
  );
  return [
    '# Audio analysis speed',
    '',
    `Run: \`node --import tsx bench/analysis.ts\` on ` +
      `${new Date().toISOString().slice(0, 10)}; Node ${process.version}; ${version};`,
    `load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} (the machine is shared: compare the ratio, not the absolute times).`,
    '',
    `- **ours**: read the WAV (float32 / 16 / 24-bit PCM) + ` +
      `\`analyzeAudio\` (loudness, true peak, timing, waveform), in process.`,
    `- **ffmpeg**: \`ffmpeg -nostats -i FILE -af ebur128=peak=true -f null -\`, wall time of the whole command.`,
    `- Runs alternate ffmpeg / ours; each number is the median of ${REPEATS}. "x rt" = multiple of real time.`,
    '',
    '| file | seconds | ours ms | ours x rt | ffmpeg ms | ffmpeg x rt | ours / ffmpeg |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(line),
    line(total),
    '',
    `Streaming an hour of stereo 48 kHz (programme-like) through ` +
      `\`createAnalyzer\` in 100 ms chunks: ${(stream.ms / 1000).toFixed(1)} s ` +
      `(${(3600 / (stream.ms / 1000)).toFixed(0)}x real time); largest growth of RSS ` +
      `${stream.rssGrowthMb.toFixed(0)} MB, of the JS heap ${stream.heapGrowthMb.toFixed(0)} MB ` +
      `(the signal itself would be ${((3600 * RATE * 2 * 4) / 2 ** 20).toFixed(0)} MB as float32).`,
    '',
    'Decoding an MP3 (another module) is not included: this measures analysis on PCM.',
    '',
  ].join('\n');
}

const dir = mkdtempSync(path.join(tmpdir(), 'analysis-bench-'));
try {
  const files = [...writeTech3341(dir), ...writeSynthesized(dir)];
  const rows = files.map((file) => {
    const row = benchFile(file);
    console.log(`${row.file}: ours ${row.oursMs.toFixed(0)} ms, ffmpeg ${row.ffmpegMs.toFixed(0)} ms`);
    return row;
  });
  const stream = streamOneHour();
  console.log(`one hour streamed in ${(stream.ms / 1000).toFixed(1)} s, RSS +${stream.rssGrowthMb.toFixed(0)} MB`);
  const markdown = report(rows, stream);
  writeFileSync(path.resolve(import.meta.dirname, 'results/analysis.md'), markdown);
  console.log(markdown);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
