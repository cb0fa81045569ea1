import type { PcmAudio } from '../types.ts';
import type { AudioStream } from './audio-stream.ts';
import { yieldToEventLoop } from './audio-stream.ts';
import type { ByteSource } from './byte-source.ts';
import { DecodeError } from './decode-error.ts';
import { readAiffHeader, type AiffLayout } from './aiff-header.ts';
import { deinterleave } from './pcm.ts';

/** About a megabyte of sample bytes per chunk, whatever the channel count. */
const CHUNK_BYTES = 1 << 20;

/**
 * AIFF and AIFF-C with uncompressed samples: integers of 1 to 32 bits (NONE, twos, sowt, in24,
 * in32, raw) and floats (fl32, fl64).
 */
export async function openAiffStream(source: ByteSource): Promise<AudioStream> {
  const layout = await readAiffHeader(source);
  return {
    format: 'aiff',
    sampleRate: layout.sampleRate,
    channelCount: layout.channelCount,
    gapless: null,
    chunks: readAiffChunks(source, layout),
  };
}

async function* readAiffChunks(source: ByteSource, layout: AiffLayout): AsyncGenerator<PcmAudio> {
  const frameBytes = layout.channelCount * layout.bytesPerSample;
  const framesPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / frameBytes));
  let framesRead = 0;
  while (framesRead < layout.frames) {
    const wanted = Math.min(framesPerChunk, layout.frames - framesRead);
    const bytes = await source.read(wanted * frameBytes);
    const frames = Math.floor(bytes.length / frameBytes);
    if (frames > 0) {
      yield { sampleRate: layout.sampleRate, channels: deinterleaveAiff(bytes, layout, frames) };
      framesRead += frames;
    }
    if (frames < wanted) break;
    await yieldToEventLoop();
  }
  if (framesRead < layout.frames) {
    throw new DecodeError(`truncated AIFF data: ${layout.frames - framesRead} of ${layout.frames} frames missing`);
  }
}

/**
 * Interleaved AIFF samples to planar floats. Samples are signed (8-bit too, unlike WAV) and
 * left-justified in their bytes, so dividing the whole container by its full scale gives the
 * value whatever the declared bit depth, as ffmpeg reads them.
 */
function deinterleaveAiff(bytes: Uint8Array, layout: AiffLayout, frames: number): Float32Array[] {
  const { channelCount, bytesPerSample } = layout;
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return deinterleave(frames, channelCount, bytesPerSample, sampleReader(data, layout));
}

function sampleReader(
  data: DataView,
  { encoding, bytesPerSample, littleEndian: le }: AiffLayout,
): (offset: number) => number {
  if (encoding === 'float') return bytesPerSample === 8 ? (o) => data.getFloat64(o, le) : (o) => data.getFloat32(o, le);
  if (encoding === 'unsigned') return (o) => (data.getUint8(o) - 128) / 128;
  switch (bytesPerSample) {
    case 1:
      return (o) => data.getInt8(o) / 128;
    case 2:
      return (o) => data.getInt16(o, le) / 32768;
    case 3:
      return le
        ? (o) => ((data.getInt8(o + 2) << 16) | data.getUint16(o, true)) / 8388608
        : (o) => ((data.getInt8(o) << 16) | data.getUint16(o + 1)) / 8388608;
    default:
      return (o) => data.getInt32(o, le) / 2147483648;
  }
}
