import type { PcmAudio } from '../types.ts';
import { downmixToStereo, stereoDownmixMatrix } from './downmix.ts';
import { Resampler } from './resampler.ts';

/**
 * Turns incoming audio into what LAME takes: one or two channels at an MP3 rate, with finite
 * values (a NaN reaching LAME's psychoacoustic model helps no one). Streaming: chunks in, chunks
 * out, the resampler keeping its history between them.
 */
export class ChannelPlan {
  readonly outputChannelCount: 1 | 2;
  private readonly matrix: ReturnType<typeof stereoDownmixMatrix> | null;
  private readonly resampler: Resampler | null;

  constructor(
    readonly inputChannelCount: number,
    inputRate: number,
    readonly outputRate: number,
  ) {
    this.outputChannelCount = inputChannelCount === 1 ? 1 : 2;
    this.matrix = inputChannelCount > 2 ? stereoDownmixMatrix(inputChannelCount) : null;
    this.resampler = inputRate === outputRate ? null : new Resampler(inputRate, outputRate, this.outputChannelCount);
  }

  convert(chunk: PcmAudio): Float32Array[] {
    const channels = (this.matrix ? downmixToStereo(chunk.channels, this.matrix) : chunk.channels).map(finite);
    return this.resampler ? this.resampler.process(channels) : channels;
  }

  /** The resampler's last output once the input has ended. */
  flush(): Float32Array[] {
    return this.resampler ? this.resampler.flush() : [];
  }
}

function finite(channel: Float32Array): Float32Array {
  for (let i = 0; i < channel.length; i++) {
    if (!Number.isFinite(channel[i]!)) return channel.map((v) => (Number.isFinite(v) ? v : 0));
  }
  return channel;
}
