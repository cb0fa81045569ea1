import type { FileHandle } from 'node:fs/promises';
import type { PcmAudio } from '../types.ts';
import type { Mp3EncodeOptions } from './mp3-options.ts';
import { type Mp3InputFormat, Mp3StreamEncoder } from './mp3-stream-encoder.ts';

/** An MP3 being written chunk by chunk; `finish` completes it with its Info tag in front. */
export interface Mp3Encoder<Result> {
  /** The MP3's own rate and channels (after any resampling and downmix). */
  readonly sampleRate: number;
  readonly channelCount: 1 | 2;
  /** Chunks must match the format the encoder was created for. */
  push(chunk: PcmAudio): Promise<void>;
  finish(): Promise<Result>;
}

/** Encodes into memory; `finish` returns the whole file. */
export async function createMp3Encoder(
  format: Mp3InputFormat,
  options?: Mp3EncodeOptions,
): Promise<Mp3Encoder<Uint8Array>> {
  const encoder = await Mp3StreamEncoder.create(format, options);
  const parts: Uint8Array[] = [];
  return {
    sampleRate: encoder.plan.outputRate,
    channelCount: encoder.plan.outputChannelCount,
    async push(chunk) {
      parts.push(...encoder.encode(chunk));
    },
    async finish() {
      const { frames, tag } = encoder.finish();
      return joinBytes([tag, ...parts, ...frames]);
    },
  };
}

/**
 * Encodes straight into a file from `position` on (default 0), so an hour of audio never sits in
 * memory: room for the tag frame is left at the start and filled in by `finish`, which returns
 * the number of bytes written. Write to a temporary name and rename after `finish` if readers
 * must never see a half-written file.
 */
export async function createMp3FileEncoder(
  file: FileHandle,
  format: Mp3InputFormat,
  options?: Mp3EncodeOptions & { position?: number },
): Promise<Mp3Encoder<number>> {
  const encoder = await Mp3StreamEncoder.create(format, options);
  const start = options?.position ?? 0;
  let position = start + encoder.tagBytes;
  await writeAll(file, new Uint8Array(encoder.tagBytes), start);
  const append = async (parts: Uint8Array[]) => {
    for (const part of parts) {
      await writeAll(file, part, position);
      position += part.length;
    }
  };
  return {
    sampleRate: encoder.plan.outputRate,
    channelCount: encoder.plan.outputChannelCount,
    push: (chunk) => append(encoder.encode(chunk)),
    async finish() {
      const { frames, tag } = encoder.finish();
      await append(frames);
      await writeAll(file, tag, start);
      return position - start;
    },
  };
}

async function writeAll(file: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let written = 0; written < bytes.length; ) {
    const { bytesWritten } = await file.write(bytes, written, bytes.length - written, position + written);
    written += bytesWritten;
  }
}

function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
