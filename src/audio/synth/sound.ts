import type { PcmAudio } from '../types.ts';
import type { Random } from './random.ts';

export type SynthCategory = 'SFX' | 'MUSIC' | 'LOFI' | 'AMBIENT';

/** One finished demo sound: audio plus metadata that describes what is heard. */
export interface SynthSound {
  /** Stable and unique for (seed, index), e.g. "demo-<seed>-<index>". */
  key: string;
  /**
   * What a sound library would call it, from what the sound is and how it was made
   * ("Laser Zap, Short Retro Sweep, 2.41 kHz to 310 Hz"): no serial number (demoName).
   */
  name: string;
  /** What the sound is: the words a search for its kind finds ("Laser Zap"). */
  title: string;
  /** How it sounds, from its synthesis parameters, coarse to fine ("Short Retro Sweep", "2.41 kHz to 310 Hz"). */
  details: string[];
  /** Finer facts, added to the name only where a catalog already holds it (ingest/demo-names.ts). */
  refinements: string[];
  /** What follows the title, if anything ("78 BPM in D minor"). */
  subtitle?: string;
  /** One sentence describing what is heard. */
  description: string;
  /** Lowercase words (hyphens allowed) describing what is heard. */
  tags: string[];
  category: SynthCategory;
  /** Whether the sound belongs on the public sample list. */
  sample: boolean;
  /** Whether it loops from its first sample to its last (the music and lo-fi loops, cut at bar lines). */
  loop: boolean;
  audio: PcmAudio;
}

/** What a generator hands back; the catalog adds key, category and sample flag. */
export interface SoundDraft {
  /** Leading part of the name ("Laser Zap"). */
  title: string;
  /** The parts of the name after the title (SynthSound.details). */
  details: string[];
  /** Finer parts, used only to set a name apart (SynthSound.refinements). */
  refinements?: string[];
  /** Optional part after the title ("78 BPM in D minor"). */
  subtitle?: string;
  description: string;
  tags: string[];
  /** True for a sound made to loop whole, end back to start. */
  loop?: boolean;
  audio: PcmAudio;
}

export interface SynthContext {
  rng: Random;
  sampleRate: number;
}

export type SoundGenerator = (context: SynthContext) => SoundDraft;
