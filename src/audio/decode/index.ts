/**
 * Audio decoding: WAV, AIFF, MP3 (with gapless trimming), FLAC and Ogg Vorbis to planar float PCM,
 * in WASM and TypeScript only (no system binary at run time).
 */
import type { PcmAudio } from '../types.ts';
import type { DecodedAudio } from './audio-stream.ts';
import type { ByteInput } from './byte-source.ts';
import { openAudioStream } from './open-audio-stream.ts';
import { concatPcm } from './pcm.ts';

export type { AudioFormat, AudioStream, DecodedAudio } from './audio-stream.ts';
export type { ByteInput } from './byte-source.ts';
export { DecodeError } from './decode-error.ts';
export { openAudioStream } from './open-audio-stream.ts';

/** Decodes a whole file held in memory. Throws DecodeError for anything that is not decodable audio. */
export async function decodeAudio(bytes: Uint8Array, fileName?: string): Promise<DecodedAudio> {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('decodeAudio expects a Uint8Array');
  const stream = await openAudioStream(bytes, fileName);
  const chunks: PcmAudio[] = [];
  for await (const chunk of stream.chunks) chunks.push(chunk);
  const audio = concatPcm(chunks, stream.sampleRate, stream.channelCount);
  return { ...audio, format: stream.format, gapless: stream.gapless };
}

/**
 * Decodes in chunks (a few seconds each) from bytes or a stream of bytes (e.g. a file read
 * stream), so an hour of audio never has to be in memory at once.
 */
export async function* decodeChunks(input: ByteInput, fileName?: string): AsyncGenerator<PcmAudio> {
  const stream = await openAudioStream(input, fileName);
  yield* stream.chunks;
}
