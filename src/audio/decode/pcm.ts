import type { PcmAudio } from '../types.ts';

/** Joins chunks decoded in order into one PcmAudio (the whole-buffer form of a stream). */
export function concatPcm(chunks: readonly PcmAudio[], sampleRate: number, channelCount: number): PcmAudio {
  let length = 0;
  for (const chunk of chunks) length += chunk.channels[0]?.length ?? 0;
  const channels = Array.from({ length: channelCount }, () => new Float32Array(length));
  let offset = 0;
  for (const chunk of chunks) {
    const chunkLength = chunk.channels[0]?.length ?? 0;
    for (const [c, channel] of channels.entries()) channel.set(chunk.channels[c]!, offset);
    offset += chunkLength;
  }
  return { sampleRate, channels };
}

export function pcmLength(audio: PcmAudio): number {
  return audio.channels[0]?.length ?? 0;
}

/** Interleaved frames to one array per channel; `read(offset)` gives the sample at a byte offset. */
export function deinterleave(
  frames: number,
  channelCount: number,
  bytesPerSample: number,
  read: (offset: number) => number,
): Float32Array[] {
  const frameBytes = channelCount * bytesPerSample;
  const channels: Float32Array[] = [];
  for (let c = 0; c < channelCount; c++) {
    const channel = new Float32Array(frames);
    for (let i = 0, offset = c * bytesPerSample; i < frames; i++, offset += frameBytes) channel[i] = read(offset);
    channels.push(channel);
  }
  return channels;
}
