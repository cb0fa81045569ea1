/**
 * The labelled recordings that bench/similar-eval/build.ts wrote, read back; which sources were
 * made by the same people (left out together when fitting); and each recording's measures,
 * kept on disk so that a rerun measures only what changed (docs/similar-sounds.md).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DescriptorMeter } from '../../src/audio/analyze/descriptors.ts';

export interface Recording {
  file: string;
  source: string;
  family: string;
  origin: string;
  /** `loudest`: the one recording of its instrument or key that is evaluated; `softer`: fitting only. */
  layer: 'loudest' | 'softer';
}

/**
 * The split the shipped projection (src/audio/analyze/similar-projection.ts) was fitted with:
 * these sources were left out of it. The evaluation (run.ts) no longer uses it: it leaves out
 * each source in turn.
 */
export const HELD_OUT_SOURCES: readonly string[] = [
  'timgm6mb',
  'musescore',
  'avl-red-zeppelin',
  'hydrogen-bja-pacific',
  'hydrogen-colomboacousticdrumkit',
  'hydrogen-forzeestereo',
  'hydrogen-gimme-a-hand-1-0',
  'hydrogen-hardelectro1',
  'hydrogen-millo-drums-v-1',
  'hydrogen-millo-multilayered2',
  'hydrogen-millo-multilayered3',
  'hydrogen-rumpf-kit-z01-h2',
];

export function isHeldOut(recording: Recording): boolean {
  return HELD_OUT_SOURCES.includes(recording.source);
}

/** Families as drummers name them; the others are pitched. */
export const DRUM_FAMILIES: readonly string[] = ['kick', 'snare', 'rim', 'hi-hat', 'tom', 'crash', 'ride', 'clap'];

/**
 * Sources that share recordings or their maker: when one of them is evaluated, none of them is
 * fitted on. MuseScore General is built on Fluid R3; Glen MacArthur made both AVL kits and
 * Hydrogen's Black Pearl (AVL's, converted) and Gimme A Hand; ArtemioLabs and emillo made two and
 * three of Hydrogen's kits. A source not named here is its own group.
 */
const SOURCE_GROUPS: Record<string, string> = {
  'fluid-r3': 'fluid',
  musescore: 'fluid',
  'avl-black-pearl': 'glen-macarthur',
  'avl-red-zeppelin': 'glen-macarthur',
  'hydrogen-the-black-pearl-1-0': 'glen-macarthur',
  'hydrogen-gimme-a-hand-1-0': 'glen-macarthur',
  'hydrogen-electricempirekit': 'artemiolabs',
  'hydrogen-hardelectro1': 'artemiolabs',
  'hydrogen-millo-drums-v-1': 'emillo',
  'hydrogen-millo-multilayered2': 'emillo',
  'hydrogen-millo-multilayered3': 'emillo',
};

export function groupOf(source: string): string {
  return SOURCE_GROUPS[source] ?? source;
}

export function readRecordings(folder: string): Recording[] {
  const lines = readFileSync(path.join(folder, 'labels.tsv'), 'utf8').trim().split('\n').slice(1);
  return lines.map((line) => {
    const [file, source, family, origin, layer] = line.split('\t') as [string, string, string, string, string];
    return { file, source, family, origin, layer: layer === 'softer' ? 'softer' : 'loudest' };
  });
}

/** A mono 16-bit WAV as build.ts writes it, as samples. */
export function readWav(file: string): { sampleRate: number; samples: Float32Array } {
  const bytes = readFileSync(file);
  const sampleRate = bytes.readUInt32LE(24);
  const data = bytes.subarray(44, 44 + bytes.readUInt32LE(40));
  const samples = new Float32Array(data.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2) / 32768;
  return { sampleRate, samples };
}

/**
 * Where measures and ffmpeg's statistics are kept between runs: SIMILAR_EVAL_CACHE, by default a
 * folder in the system's temporary one. Entries are keyed by each WAV's content, and measures
 * also by the measuring code, so a rebuilt folder or changed measures never read stale numbers.
 */
export const CACHE = process.env.SIMILAR_EVAL_CACHE ?? path.join(os.tmpdir(), 'similar-eval-cache');

export function contentKey(file: string): string {
  return createHash('sha1').update(readFileSync(file)).digest('hex');
}

/** A JSON object of numbers per key, read from the cache and written back by `save`. */
export function cached(name: string): { known: Record<string, number[]>; save: () => void } {
  mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, name);
  const known: Record<string, number[]> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  return { known, save: () => writeFileSync(file, JSON.stringify(known)) };
}

/** The measuring code's version: a hash of the files that measure. */
export const MEASURES_VERSION = ['descriptors.ts', 'periodicity.ts', 'fft.ts']
  .reduce(
    (hash, file) => hash.update(readFileSync(new URL(`../../src/audio/analyze/${file}`, import.meta.url))),
    createHash('sha1'),
  )
  .digest('hex')
  .slice(0, 12);

/** Measures of one recording, as the analyzer computes them. */
export function measuresOf(file: string): number[] {
  const { sampleRate, samples } = readWav(file);
  const meter = new DescriptorMeter(sampleRate);
  meter.push([samples], samples.length);
  return meter.measures();
}

/** Measures of every recording in `folder`, from the cache where the same code measured the same file. */
export function measureAll(folder: string, recordings: readonly Recording[]): number[][] {
  const { known, save } = cached(`measures-${MEASURES_VERSION}.json`);
  let added = 0;
  const all = recordings.map((recording) => {
    const file = path.join(folder, recording.file);
    const key = contentKey(file);
    if (!known[key]) {
      known[key] = measuresOf(file);
      if (++added % 200 === 0) save();
    }
    return known[key]!;
  });
  if (added > 0) save();
  return all;
}
