import { generateAmbient } from './ambient/index.ts';
import { generateLofi, generateMusic } from './music/index.ts';
import { planSound } from './plan.ts';
import { hashString, Random } from './random.ts';
import { generateSfx } from './sfx/index.ts';
import type { SoundGenerator, SynthCategory, SynthSound } from './sound.ts';

export type { SynthCategory, SynthSound } from './sound.ts';
export { CATEGORY_DURATION, CATEGORY_WEIGHTS } from './plan.ts';

const GENERATORS: Readonly<Record<SynthCategory, SoundGenerator>> = {
  SFX: generateSfx,
  AMBIENT: generateAmbient,
  MUSIC: generateMusic,
  LOFI: generateLofi,
};

export interface CatalogOptions {
  count: number;
  seed: string | number;
}

/**
 * The demo catalog, one sound at a time: nothing is kept between sounds, so 12,000 need no
 * more memory than one. Sound i is the same as `synthesizeSound(seed, i)`.
 */
export function synthesizeCatalog(options: CatalogOptions): Iterable<SynthSound> {
  const { count, seed } = options;
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a whole number >= 0, got ${count}`);
  return {
    *[Symbol.iterator]() {
      for (let index = 0; index < count; index++) yield synthesizeSound(seed, index);
    },
  };
}

/** One demo sound, determined by (seed, index) alone: same inputs, byte-identical output. */
export function synthesizeSound(seed: string | number, index: number): SynthSound {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`index must be a whole number >= 0, got ${index}`);
  const rng = new Random(`sound-catalog-synth:${String(seed)}:${index}`);
  const plan = planSound(rng, index);
  const draft = GENERATORS[plan.category]({ rng, sampleRate: plan.sampleRate });
  const named = { title: draft.title, details: draft.details, refinements: draft.refinements ?? [] };
  return {
    key: `demo-${seedSlug(seed)}-${index}`,
    name: demoName({ ...named, ...(draft.subtitle !== undefined && { subtitle: draft.subtitle }) }),
    ...named,
    ...(draft.subtitle !== undefined && { subtitle: draft.subtitle }),
    description: draft.description,
    tags: draft.tags,
    category: plan.category,
    sample: plan.sample,
    loop: draft.loop === true,
    audio: draft.audio,
  };
}

/** Seeds go into keys (and so file names): keep them tame, and distinct when tidying changed them. */
function seedSlug(seed: string | number): string {
  const text = String(seed);
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return slug === text && slug.length > 0 ? slug : `${slug}${slug ? '-' : ''}${hashString(text).toString(36)}`;
}

/**
 * A demo sound's name, the way a sound library writes one: what it is, then how it sounds, coarse
 * to fine, then its subtitle ("Laser Zap, Short Retro Sweep, 2.41 kHz to 310 Hz";
 * "Moody Synthwave Loop, Saw Lead, Am–F–C–G - 104 BPM in A minor"). `refined` adds that many of
 * the sound's refinements, for a name a catalog already holds (ingest/demo-names.ts).
 */
export function demoName(
  sound: Pick<SynthSound, 'title' | 'details' | 'refinements' | 'subtitle'>,
  refined = 0,
): string {
  const parts = [sound.title, ...sound.details, ...sound.refinements.slice(0, refined)];
  return `${parts.join(', ')}${sound.subtitle ? ` - ${sound.subtitle}` : ''}`;
}
