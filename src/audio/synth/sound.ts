import type { PcmAudio } from '../types.ts';
import type { Random } from './random.ts';

export type SynthCategory = 'SFX' | 'MUSIC' | 'LOFI' | 'AMBIENT';

/** One finished demo sound: audio plus metadata that describes what is heard. */
export interface SynthSound {
  /** Stable and unique for (seed, index), e.g. "demo-<seed>-<index>". */
  key: string;
  /** Title and subtitle, unnumbered: two demo sounds may share it (the catalog numbers them: demoName). */
  name: string;
  /** What the sound is ("Laser Zap Short High"). */
  title: string;
  /** What follows the title, if anything ("78 BPM in D minor"). */
  subtitle?: string;
  /** One sentence describing what is heard. */
  description: string;
  /** Lowercase words (hyphens allowed) describing what is heard. */
  tags: string[];
  category: SynthCategory;
  /** Whether the sound belongs on the public sample list. */
  sample: boolean;
  audio: PcmAudio;
}

/** What a generator hands back; the catalog adds key, category and sample flag. */
export interface SoundDraft {
  /** Leading part of the name ("Laser Zap Short High"). */
  title: string;
  /** Optional part after the title ("78 BPM in D minor"). */
  subtitle?: string;
  description: string;
  tags: string[];
  audio: PcmAudio;
}

export interface SynthContext {
  rng: Random;
  sampleRate: number;
}

export type SoundGenerator = (context: SynthContext) => SoundDraft;
