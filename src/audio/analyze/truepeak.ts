/**
 * True peak per ITU-R BS.1770 Annex 2: the largest |value| of the oversampled signal over all
 * channels, fed chunk by chunk. Each channel keeps only the last TAPS_PER_PHASE - 1 samples.
 */
import { designInterpolator, oversamplingFactor, TAPS_PER_PHASE, type Interpolator } from './interpolator.ts';

const HISTORY = TAPS_PER_PHASE - 1;
/** Interpolated positions checked against the skip bound at once. */
const SKIP_BLOCK = 64;
/** Margin so that a skipped value can never be the one that rounding would have made the peak. */
const SKIP_MARGIN = 1 + 1e-9;

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
    // The samples are the oversampled signal's phase 0; taking them first lets the bound skip more.
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
    for (let start = 0; start < frames; start += SKIP_BLOCK) {
      const end = Math.min(frames, start + SKIP_BLOCK);
      if (maxAbs(buffer, start, end + HISTORY) * this.interpolator.gainBound * SKIP_MARGIN <= this.peak) continue;
      const blockPeak =
        this.interpolator.factor === 4
          ? peakOf3Phases(buffer, start, end, this.interpolator.coefficients)
          : peakOfPhase(buffer, start, end, this.interpolator.coefficients);
      if (blockPeak > this.peak) this.peak = blockPeak;
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

/** 4x oversampling: three phases share each sample load. Window i is buffer[i, i + TAPS_PER_PHASE). */
function peakOf3Phases(buffer: Float32Array, start: number, end: number, coefficients: Float64Array): number {
  let m = 0;
  for (let i = start; i < end; i++) {
    let p1 = 0;
    let p2 = 0;
    let p3 = 0;
    for (let j = 0; j < TAPS_PER_PHASE; j++) {
      const x = buffer[i + j]!;
      p1 += coefficients[j]! * x;
      p2 += coefficients[TAPS_PER_PHASE + j]! * x;
      p3 += coefficients[2 * TAPS_PER_PHASE + j]! * x;
    }
    if (p1 < 0) p1 = -p1;
    if (p2 < 0) p2 = -p2;
    if (p3 < 0) p3 = -p3;
    if (p1 > m) m = p1;
    if (p2 > m) m = p2;
    if (p3 > m) m = p3;
  }
  return m;
}

/** 2x oversampling: the single half-sample phase. */
function peakOfPhase(buffer: Float32Array, start: number, end: number, coefficients: Float64Array): number {
  let m = 0;
  for (let i = start; i < end; i++) {
    let p = 0;
    for (let j = 0; j < TAPS_PER_PHASE; j++) p += coefficients[j]! * buffer[i + j]!;
    if (p < 0) p = -p;
    if (p > m) m = p;
  }
  return m;
}
