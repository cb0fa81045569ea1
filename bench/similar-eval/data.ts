/**
 * The labelled recordings that bench/similar-eval/build.ts wrote, read back, and the split by
 * source that every learned or tuned number respects (docs/similar-sounds.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Recording {
  file: string;
  source: string;
  family: string;
  origin: string;
}

/**
 * Sources held out: nothing in the descriptors, their weights or the learned projection is
 * fitted on them, and only they are reported on. Every other source is for training: FluidR3,
 * AVL's Black Pearl (and Hydrogen's copy of it), Sonic Pi, and Hydrogen's
 * Audiophob, ElectricEmpire and VariBreaks kits. Kits by one author stay on one side (Millo's three).
 * Two fonts are held out so that a pitched sound has pitched sounds of another source to find.
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

export const DRUM_FAMILIES: readonly string[] = ['kick', 'snare', 'hi-hat', 'tom', 'cymbal', 'clap'];

export function isHeldOut(recording: Recording): boolean {
  return HELD_OUT_SOURCES.includes(recording.source);
}

export function readRecordings(folder: string): Recording[] {
  const lines = readFileSync(path.join(folder, 'labels.tsv'), 'utf8').trim().split('\n').slice(1);
  return lines.map((line) => {
    const [file, source, family, origin] = line.split('\t') as [string, string, string, string];
    return { file, source, family, origin };
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
