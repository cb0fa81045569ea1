import type { PcmAudio } from '../types.ts';
import { downmixToStereo, stereoDownmixMatrix } from './downmix.ts';
import { Resampler } from './resampler.ts';

/**
 * Brings audio to a rendition's channel count and rate, chunk by chunk: mono is copied to both
 * sides, stereo averaged to mono (more channels go through the stereo downmix first), then the
 * resampler, which keeps its history between chunks. Done before leveling, so loudness and
 * peaks are measured and limited on what the file will hold.
 */
export class Conformer {
  private readonly resampler: Resampler | null;
  private readonly matrix: ReturnType<typeof stereoDownmixMatrix> | null;

  constructor(
    inputChannels: number,
    inputRate: number,
    private readonly outputChannels: 1 | 2,
    private readonly outputRate: number,
  ) {
    this.matrix = inputChannels > 2 ? stereoDownmixMatrix(inputChannels) : null;
    this.resampler = inputRate === outputRate ? null : new Resampler(inputRate, outputRate, outputChannels);
  }

  convert(chunk: PcmAudio): PcmAudio {
    const channels = this.remix(chunk.channels);
    return { sampleRate: this.outputRate, channels: this.resampler ? this.resampler.process(channels) : channels };
  }

  /** The resampler's last output once the input has ended (nothing without one). */
  flush(): PcmAudio {
    return { sampleRate: this.outputRate, channels: this.resampler ? this.resampler.flush() : this.remix([]) };
  }

  private remix(input: readonly Float32Array[]): Float32Array[] {
    if (input.length === 0) return Array.from({ length: this.outputChannels }, () => new Float32Array(0));
    const stereoOrLess = this.matrix ? downmixToStereo(input, this.matrix) : [...input];
    if (this.outputChannels === 2)
      return stereoOrLess.length === 1 ? [stereoOrLess[0]!, stereoOrLess[0]!.slice()] : stereoOrLess;
    if (stereoOrLess.length === 1) return stereoOrLess;
    const [left, right] = stereoOrLess as [Float32Array, Float32Array];
    const mono = new Float32Array(left.length);
    for (let i = 0; i < mono.length; i++) mono[i] = (left[i]! + right[i]!) / 2;
    return [mono];
  }
}

/** A stream of chunks conformed, the resampler's tail included. */
export async function* conformed(chunks: AsyncIterable<PcmAudio>, conformer: Conformer): AsyncGenerator<PcmAudio> {
  for await (const chunk of chunks) yield conformer.convert(chunk);
  const tail = conformer.flush();
  if ((tail.channels[0]?.length ?? 0) > 0) yield tail;
}
