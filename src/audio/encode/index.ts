/**
 * MP3 encoding through LAME (WASM), with a correct Xing/Info + LAME tag so that decoders trim the
 * encoder delay and padding and return exactly the samples that went in.
 */
import type { PcmAudio } from '../types.ts';
import { createMp3Encoder } from './mp3-encoder.ts';
import type { Mp3EncodeOptions } from './mp3-options.ts';

export { createMp3Encoder, createMp3FileEncoder, type Mp3Encoder } from './mp3-encoder.ts';
export { DEFAULT_VBR_QUALITY, type Mp3EncodeOptions, mp3SampleRate } from './mp3-options.ts';
export type { Mp3InputFormat } from './mp3-stream-encoder.ts';
export { stereoDownmixMatrix } from './downmix.ts';
export { Resampler } from './resampler.ts';

/**
 * Encodes audio to an MP3 file in memory. Mono stays mono, stereo stereo, more channels are
 * downmixed to stereo; rates MP3 lacks are resampled (see mp3SampleRate). VBR V2 by default.
 */
export async function encodeMp3(audio: PcmAudio, options?: Mp3EncodeOptions): Promise<Uint8Array> {
  const encoder = await createMp3Encoder(
    { sampleRate: audio.sampleRate, channelCount: audio.channels.length },
    options,
  );
  await encoder.push(audio);
  return encoder.finish();
}
