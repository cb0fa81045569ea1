import type { PcmAudio } from '../types.ts';
import type { Random } from './random.ts';

export type SynthCategory = 'SFX' | 'MUSIC' | 'LOFI' | 'AMBIENT';

/** One finished demo sound: audio plus metadata that describes what is heard. */
export interface SynthSound {
  /** Stable and unique for (seed, index), e.g. "demo-<seed>-<index>". */
  key: string;
  name: string;
  /** One sentence describing what is heard. */
  description: string;
  /** Lowercase words (hyphens allowed) describing what is heard. */
  tags: string[];
  category: SynthCategory;
  /** Whether the sound belongs on the public sample list. */
  sample: boolean;
  audio: PcmAudio;
}

/** What a generator hands back; the catalog adds key, category, sample flag and a serial. */
export interface SoundDraft {
  /** Leading part of the name, before the serial number ("Laser Zap Short High"). */
  title: string;
  /** Optional part after the serial ("78 BPM in D minor"). */
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
