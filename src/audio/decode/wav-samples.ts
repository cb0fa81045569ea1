import { deinterleave } from './pcm.ts';
import type { WavFormat } from './wav-format.ts';

/**
 * Interleaved WAV sample bytes to planar floats, scaled the way ffmpeg does (integer / 2^(bits-1),
 * 8-bit unsigned around 128), so that values match `ffmpeg -f f32le` exactly.
 */
export function deinterleaveWav(bytes: Uint8Array, format: WavFormat, frames: number): Float32Array[] {
  const { channelCount, bytesPerSample } = format;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return deinterleave(frames, channelCount, bytesPerSample, sampleReader(format, view));
}

function sampleReader(format: WavFormat, view: DataView): (offset: number) => number {
  if (format.encoding === 'float') {
    return format.bytesPerSample === 4 ? (o) => view.getFloat32(o, true) : (o) => view.getFloat64(o, true);
  }
  switch (format.bytesPerSample) {
    case 1:
      return (o) => (view.getUint8(o) - 128) / 128;
    case 2:
      return (o) => view.getInt16(o, true) / 32768;
    case 3:
      return (o) => ((view.getInt8(o + 2) << 16) | view.getUint16(o, true)) / 8388608;
    default:
      return (o) => view.getInt32(o, true) / 2147483648;
  }
}
