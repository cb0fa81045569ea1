import type { AudioFormat } from './decode/index.ts';
import type { Mp3EncodeOptions } from './encode/index.ts';
import type { PictureSpec } from './pictures/index.ts';
import type { SynthSound } from './synth/index.ts';
import type { RenditionMeasurements, RenditionSpec } from './render.ts';
import type { SpriteEntry, SpriteSpec } from './sprite.ts';
import type { AudioMeasurements } from './types.ts';

/**
 * Work sent to a worker thread (ingest/worker.ts runs it): ingest's files (probed only, in a dry
 * run) and demo sounds, the media route's renditions and pictures (written whole and synced to
 * `outputPath`, never sent back as bytes) and packs' sprites (their two files likewise). Here,
 * below all of them, so that each can send it.
 */
export type Job =
  | { id: number; kind: 'file'; sourcePath: string; temporaryPath: string; encoding: Mp3EncodeOptions }
  | { id: number; kind: 'probe'; sourcePath: string }
  | { id: number; kind: 'synth'; seed: string; index: number }
  | { id: number; kind: 'render'; sourcePath: string; outputPath: string; spec: RenditionSpec }
  | { id: number; kind: 'picture'; sourcePath: string; outputPath: string; spec: PictureSpec }
  | { id: number; kind: 'sprite'; oggPath: string; mp3Path: string; spec: SpriteSpec };

export type JobResult =
  | { id: number; ok: false; reason: string }
  | {
      id: number;
      ok: true;
      kind: 'file';
      mp3Path: string;
      encoded: boolean;
      measurements: AudioMeasurements;
      source: SourceAudio;
    }
  | ({ id: number; ok: true; kind: 'probe' } & AudioProbe)
  | {
      id: number;
      ok: true;
      kind: 'synth';
      mp3: Uint8Array;
      /** The MP3's sample rate. */
      sampleRate: number;
      measurements: AudioMeasurements;
      metadata: Omit<SynthSound, 'audio'>;
    }
  | { id: number; ok: true; kind: 'render'; measurements: RenditionMeasurements }
  | { id: number; ok: true; kind: 'picture'; bytes: number }
  | { id: number; ok: true; kind: 'sprite'; entries: SpriteEntry[] };

export type JobWithoutId = Job extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;

/** A source file as decoded: its format, rate and length in sample frames. */
export interface SourceAudio {
  format: AudioFormat;
  sampleRate: number;
  frames: number;
}

/** What decoding a whole file found: enough to say that ingest would take it, and what it is. */
export interface AudioProbe {
  format: AudioFormat;
  sampleRate: number;
  channels: number;
  /** Seconds. */
  duration: number;
}
