import type { PcmAudio } from '../types.ts';
import type { AudioStream } from './audio-stream.ts';
import { yieldToEventLoop } from './audio-stream.ts';
import type { ByteSource } from './byte-source.ts';
import { DecodeError } from './decode-error.ts';
import { readWavHeader, type WavLayout } from './wav-header.ts';
import { deinterleaveWav } from './wav-samples.ts';

/** About a megabyte of sample bytes per chunk, whatever the channel count. */
const CHUNK_BYTES = 1 << 20;

export async function openWavStream(source: ByteSource): Promise<AudioStream> {
  const layout = await readWavHeader(source);
  return {
    format: 'wav',
    sampleRate: layout.sampleRate,
    channelCount: layout.channelCount,
    gapless: null,
    chunks: readWavChunks(source, layout),
  };
}

async function* readWavChunks(source: ByteSource, layout: WavLayout): AsyncGenerator<PcmAudio> {
  const frameBytes = layout.channelCount * layout.bytesPerSample;
  const framesPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / frameBytes));
  const declaredFrames = layout.dataBytes === null ? Infinity : Math.floor(layout.dataBytes / frameBytes);
  let framesRead = 0;
  while (framesRead < declaredFrames) {
    const wanted = Math.min(framesPerChunk, declaredFrames - framesRead);
    const bytes = await source.read(wanted * frameBytes);
    const frames = Math.floor(bytes.length / frameBytes);
    if (frames > 0) {
      yield { sampleRate: layout.sampleRate, channels: deinterleaveWav(bytes, layout, frames) };
      framesRead += frames;
    }
    if (frames < wanted) break;
    await yieldToEventLoop();
  }
  if (declaredFrames !== Infinity && framesRead < declaredFrames) {
    throw new DecodeError(`truncated WAV data: ${declaredFrames - framesRead} of ${declaredFrames} frames missing`);
  }
}
