import type { GaplessInfo, PcmAudio } from '../types.ts';

export type AudioFormat = 'mp3' | 'wav' | 'flac' | 'ogg' | 'aiff';

/** A whole file decoded at once. */
export type DecodedAudio = PcmAudio & { format: AudioFormat; gapless: GaplessInfo | null };

/**
 * A file being decoded piece by piece: what it is, known from its header before any audio is
 * decoded, and its audio as planar chunks in order (each from 64 KiB to 1 MiB of input, so
 * typically a few seconds of audio).
 */
export interface AudioStream {
  format: AudioFormat;
  sampleRate: number;
  channelCount: number;
  /** MP3 only: the delay and padding trimmed, from its LAME tag; null when nothing was trimmed. */
  gapless: GaplessInfo | null;
  /** Iterate once. Stopping early (break) releases the decoder and the input. */
  chunks: AsyncIterable<PcmAudio>;
}

/** Lets other work run between chunks: a long decode must not stall the server's event loop. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
