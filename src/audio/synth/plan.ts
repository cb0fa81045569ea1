import type { Random } from './random.ts';
import type { SynthCategory } from './sound.ts';

/**
 * The shape of a demo catalog, as data. Mostly short effects keep the average duration (and so
 * the time to synthesize, encode and analyze a catalog) moderate.
 */
export const CATEGORY_WEIGHTS: readonly (readonly [SynthCategory, number])[] = [
  ['SFX', 70],
  ['AMBIENT', 10],
  ['MUSIC', 11],
  ['LOFI', 9],
];

/** Duration limits in seconds that every generator of a category keeps to. */
export const CATEGORY_DURATION: Readonly<Record<SynthCategory, { min: number; max: number }>> = {
  SFX: { min: 0.05, max: 4 },
  AMBIENT: { min: 5, max: 60 },
  MUSIC: { min: 4, max: 60 },
  LOFI: { min: 4, max: 60 },
};

/** The first sounds cycle through the categories so even a tiny catalog shows all four. */
const SHOWCASE_ORDER: readonly SynthCategory[] = ['SFX', 'AMBIENT', 'MUSIC', 'LOFI'];
const SHOWCASE_ROUNDS = 3;
/** Beyond the showcase, about one sound in this many is a public sample. */
const SAMPLE_ONE_IN = 40;

export interface SoundPlan {
  category: SynthCategory;
  sample: boolean;
  sampleRate: number;
}

export function planSound(rng: Random, index: number): SoundPlan {
  const showcase = SHOWCASE_ORDER[index % SHOWCASE_ORDER.length];
  const inShowcase = index < SHOWCASE_ORDER.length * SHOWCASE_ROUNDS && showcase !== undefined;
  const category = inShowcase ? showcase : rng.weighted(CATEGORY_WEIGHTS);
  const sample = inShowcase || rng.chance(1 / SAMPLE_ONE_IN);
  // Both rates occur in real catalogs; the analysis and encoder must cope with either.
  const sampleRate = rng.chance(0.25) ? 48000 : 44100;
  return { category, sample, sampleRate };
}
