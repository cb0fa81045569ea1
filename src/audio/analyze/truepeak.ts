/**
 * True peak per ITU-R BS.1770 Annex 2: the largest |value| of the oversampled signal over all
 * channels, fed chunk by chunk. Each channel keeps only the last TAPS_PER_PHASE - 1 samples.
 *
 * Only the maximum matters, so work is skipped wherever a bound proves a value cannot beat the
 * peak so far: whole blocks by their largest sample, single positions by their centre taps (see
 * interpolator.ts). Skipping never changes the result, so any chunking gives the same number.
 */
import { designInterpolator, oversamplingFactor, TAPS_PER_PHASE, type Interpolator } from './interpolator.ts';
import { peakOfHalfPhase, peakOfThreePhases, SKIP_MARGIN } from './truepeak-kernels.ts';

const HISTORY = TAPS_PER_PHASE - 1;
/** Interpolated positions checked against the block bound at once. */
const SKIP_BLOCK = 64;

export class TruePeakMeter {
  private readonly interpolator: Interpolator;
  /** Per channel: HISTORY samples carried over, then the current chunk. */
  private buffers: Float32Array[];
  /** Linear peak so far, over samples and interpolated values of every channel. */
  private peak = 0;

  constructor(sampleRate: number, channelCount: number) {
    this.interpolator = designInterpolator(oversamplingFactor(sampleRate));
    this.buffers = Array.from({ length: channelCount }, () => new Float32Array(HISTORY + 4096));
  }

  push(channels: readonly Float32Array[], frames: number): void {
    // The samples are the oversampled signal's phase 0; taking them first lets the bounds skip more.
    let peak = this.peak;
    for (const channel of channels) {
      for (let i = 0; i < frames; i++) {
        const a = Math.abs(channel[i]!);
        if (a > peak) peak = a;
      }
    }
    this.peak = peak;
    if (this.interpolator.factor === 1) return;
    for (let c = 0; c < channels.length; c++) this.interpolateChannel(c, channels[c]!, frames);
  }

  private interpolateChannel(c: number, channel: Float32Array, frames: number): void {
    let buffer = this.buffers[c]!;
    if (buffer.length < HISTORY + frames) {
      const bigger = new Float32Array(HISTORY + frames);
      bigger.set(buffer.subarray(0, HISTORY));
      this.buffers[c] = buffer = bigger;
    }
    buffer.set(channel.subarray(0, frames), HISTORY);
    const interpolator = this.interpolator;
    const { factor, gainBound, outerGainBound } = interpolator;
    for (let start = 0; start < frames; start += SKIP_BLOCK) {
      const end = Math.min(frames, start + SKIP_BLOCK);
      // Window i covers buffer[i, i + TAPS_PER_PHASE): the block's windows span [start, end + HISTORY).
      const largest = maxAbs(buffer, start, end + HISTORY);
      if (largest * gainBound * SKIP_MARGIN <= this.peak) continue;
      const outerBound = largest * outerGainBound;
      this.peak =
        factor === 4
          ? peakOfThreePhases(buffer, start, end, interpolator, outerBound, this.peak)
          : peakOfHalfPhase(buffer, start, end, interpolator.half, outerBound, this.peak);
    }
    buffer.copyWithin(0, frames, frames + HISTORY);
  }

  /** Peak in dBTP, or null for digital silence. Flushes the filter with zeros (silence after the end). */
  finish(): number | null {
    const zeros = new Float32Array(HISTORY);
    if (this.interpolator.factor > 1) {
      for (let c = 0; c < this.buffers.length; c++) this.interpolateChannel(c, zeros, HISTORY);
    }
    return this.peak > 0 ? 20 * Math.log10(this.peak) : null;
  }
}

function maxAbs(buffer: Float32Array, start: number, end: number): number {
  let m = 0;
  for (let i = start; i < end; i++) {
    const a = Math.abs(buffer[i]!);
    if (a > m) m = a;
  }
  return m;
}
