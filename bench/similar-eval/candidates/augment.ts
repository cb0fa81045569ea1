/**
 * Copies of every recording through other recording chains, for fitting only (explore.ts AUG):
 *   node --import tsx bench/similar-eval/candidates/augment.ts /tmp/similar-eval /tmp/similar-eval-aug
 * Each chain is an ffmpeg filter: thinner or darker EQ, a mid boost, compression, a small room,
 * and the drum tuned a little up or down. A copy keeps its recording's source and family, so a
 * held-out source's copies are left out of the fit with it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const [from, to] = process.argv.slice(2) as [string, string];
const CHAINS: Record<string, string> = {
  thin: 'highpass=f=150,treble=g=5',
  dark: 'lowpass=f=5000,bass=g=5',
  mid: 'equalizer=f=900:t=q:w=1:g=7,highpass=f=60',
  comp: 'acompressor=threshold=0.05:ratio=6:attack=2:release=80:makeup=4',
  room: 'aecho=0.8:0.6:23|41|67:0.35|0.25|0.18',
  up: 'asetrate=44100*1.15,aresample=44100',
  down: 'asetrate=44100*0.87,aresample=44100',
};

mkdirSync(to, { recursive: true });
const [header, ...lines] = readFileSync(path.join(from, 'labels.tsv'), 'utf8').trim().split('\n');
const labels = [header!];
const jobs: Array<[string, string, string]> = [];
for (const line of lines) {
  const [file, source, family, origin] = line.split('\t') as [string, string, string, string];
  for (const [chain, filter] of Object.entries(CHAINS)) {
    const copy = `${chain}-${file}`;
    labels.push([copy, source, family, `${origin} ${chain}`, 'softer'].join('\t'));
    if (!existsSync(path.join(to, copy))) jobs.push([path.join(from, file), filter, path.join(to, copy)]);
  }
}
// A mono 16-bit WAV with the plain 44-byte header data.ts reads.
const encode = ['-ac', '1', '-ar', '44100', '-c:a', 'pcm_s16le', '-fflags', '+bitexact', '-flags:a', '+bitexact'];
let next = 0;
const worker = async () => {
  while (next < jobs.length) {
    const [input, filter, output] = jobs[next++]!;
    await run('ffmpeg', ['-v', 'error', '-y', '-i', input, '-af', filter, ...encode, '-map_metadata', '-1', output]);
  }
};
await Promise.all([worker(), worker(), worker()]);
writeFileSync(path.join(to, 'labels.tsv'), `${labels.join('\n')}\n`);
console.log(`${jobs.length} copies made, ${labels.length - 1} listed in ${to}`);
