import type { FileHandle } from 'node:fs/promises';
import type { PcmAudio } from '../types.ts';
import { FileWriter } from './file-writer.ts';
import { FlacEncoder } from './flac-encoder.ts';
import { createMp3FileEncoder } from './mp3-encoder.ts';
import { OpusEncoder } from './opus-encoder.ts';
import type { OutputTarget } from './output-format.ts';
import { VorbisEncoder } from './vorbis-encoder.ts';
import { WavWriter } from './wav-writer.ts';

/** A rendition's file being written chunk by chunk in its format; nothing holds the whole sound. */
export interface FileEncoder {
  /** Chunks at the target's rate and channel count. */
  push(chunk: PcmAudio): Promise<void>;
  finish(): Promise<void>;
  /**
   * Whether the encoder hands what a player would decode to `onDecoded` (Opus, which the
   * project cannot decode from a file); otherwise the file is read back to be measured.
   */
  readonly measuresItself: boolean;
}

/**
 * The encoder for a target, writing into `file` from its start. Every one streams: MP3 (LAME),
 * FLAC (libFLAC), Ogg Vorbis (libvorbis) and Opus (libopus) through maintained WASM builds from
 * npm; WAV is a header and samples, written here.
 */
export async function createFileEncoder(
  file: FileHandle,
  target: OutputTarget,
  onDecoded: (chunk: PcmAudio) => void = () => {},
): Promise<FileEncoder> {
  const out = new FileWriter(file);
  const { sampleRate, channels, bitDepth } = target;
  switch (target.format) {
    case 'mp3': {
      const mp3 = await createMp3FileEncoder(file, { sampleRate, channelCount: channels });
      return { measuresItself: false, push: (chunk) => mp3.push(chunk), finish: async () => void (await mp3.finish()) };
    }
    case 'wav': {
      const wav = new WavWriter(out, sampleRate, channels, bitDepth);
      await wav.start();
      return { measuresItself: false, push: (chunk) => wav.push(chunk), finish: () => wav.finish() };
    }
    case 'flac': {
      const flac = await FlacEncoder.create(out, sampleRate, channels, bitDepth);
      return { measuresItself: false, push: (chunk) => guarded(flac, flac.push(chunk)), finish: () => flac.finish() };
    }
    case 'ogg': {
      const vorbis = await VorbisEncoder.create(out, sampleRate, channels);
      return { measuresItself: false, push: (chunk) => vorbis.push(chunk), finish: () => vorbis.finish() };
    }
    case 'opus': {
      const opus = await OpusEncoder.create(out, channels, onDecoded);
      return { measuresItself: true, push: (chunk) => guarded(opus, opus.push(chunk)), finish: () => opus.finish() };
    }
  }
}

/** A failed write frees the codec's WASM state at once rather than with the thread. */
async function guarded(codec: { release(): void }, work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    codec.release();
    throw error;
  }
}
