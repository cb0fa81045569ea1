import { DecodeError } from './decode-error.ts';

export interface FlacStreamInfo {
  sampleRate: number;
  channelCount: number;
  bitsPerSample: number;
  /** 0 when the encoder did not know. */
  totalSamples: number;
}

export const STREAMINFO_BYTES = 34;

/** Reads a FLAC STREAMINFO block body (the 34 bytes after its 4-byte block header). */
export function readStreamInfo(body: Uint8Array, container: string): FlacStreamInfo {
  if (body.length < STREAMINFO_BYTES) throw new DecodeError(`truncated ${container} header`);
  const b = (i: number) => body[i]!;
  const sampleRate = (b(10) << 12) | (b(11) << 4) | (b(12) >> 4);
  const channelCount = ((b(12) >> 1) & 7) + 1;
  const bitsPerSample = (((b(12) & 1) << 4) | (b(13) >> 4)) + 1;
  const totalSamples = (b(13) & 15) * 2 ** 32 + new DataView(body.buffer, body.byteOffset + 14, 4).getUint32(0);
  if (sampleRate === 0) throw new DecodeError(`${container} has a zero sample rate`);
  if (bitsPerSample < 4) throw new DecodeError(`unsupported ${container}: ${bitsPerSample}-bit samples`);
  return { sampleRate, channelCount, bitsPerSample, totalSamples };
}

/** The STREAMINFO of a native FLAC stream starting with "fLaC". */
export function readFlacHeader(head: Uint8Array): FlacStreamInfo {
  if (head.length < 8 + STREAMINFO_BYTES) throw new DecodeError('truncated FLAC header');
  if ((head[4]! & 0x7f) !== 0) throw new DecodeError('damaged FLAC header: no STREAMINFO block');
  return readStreamInfo(head.subarray(8, 8 + STREAMINFO_BYTES), 'FLAC');
}

/**
 * The wasm decoder scales integers by 1 / (2^(bits-1) - 1). ffmpeg, WAV and everything else in
 * this service use 1 / 2^(bits-1); rescale so a FLAC reads exactly like the WAV it came from.
 * Up to 24 bits the float still holds the integer exactly, so round back to it first.
 */
export function rescaleFlacSamples(channels: Float32Array[], bitsPerSample: number): void {
  const full = 2 ** (bitsPerSample - 1);
  const decoderScale = full - 1;
  for (const channel of channels) {
    for (let i = 0; i < channel.length; i++) {
      const integer = channel[i]! * decoderScale;
      channel[i] = (bitsPerSample <= 24 ? Math.round(integer) : integer) / full;
    }
  }
}
