/**
 * Onset, peak and tail times (analysis.md, "Timing"), fed chunk by chunk with the per-frame
 * power (sum over channels of x²) and level (max over channels of |x|).
 *
 * Envelope: 1 ms segments start at floor(k * rate / 1000); window k is segments k..k+9 (10 ms).
 * The last window ends at the last sample (it is shorter when the length is not a whole number
 * of ms), so every sample lies in a window; a sound under 10 ms is one window. Memory: one
 * float per ms, plus the levels of the few windows that may hold the onset or tail (see
 * TimingCandidates); so one pass finds the exact samples, with no second read of the source.
 */
import type { Timing } from '../types.ts';
import { GrowableFloat32 } from './growable.ts';
import { LevelStore, RECENT_SEGMENTS } from './level-store.ts';
import { nearestRankPercentile } from './percentile.ts';
import { SEGMENTS_PER_WINDOW, TimingCandidates } from './timing-candidates.ts';
import { thresholdDb, timingFromFrames } from './timing-threshold.ts';

const NO_TIMING: Timing = { onset_ms: null, peak_ms: null, tail_ms: null };

export class TimingMeter {
  private frames = 0;
  /** Segments closed so far; the open segment has this index. */
  private segments = 0;
  private segmentEnd: number;
  private segmentPower = 0;
  private readonly recentPowers = new Float64Array(SEGMENTS_PER_WINDOW);
  private readonly envelope = new GrowableFloat32();
  private readonly candidates = new TimingCandidates(this.envelope);
  private readonly levels: LevelStore;
  private peakLevel = 0;
  private peakFrame = -1;
  private readonly isWanted = (segment: number): boolean => this.candidates.covers(segment);

  constructor(
    private readonly sampleRate: number,
    private readonly channelCount: number,
  ) {
    this.segmentEnd = this.segmentStart(1);
    this.levels = new LevelStore((s) => this.segmentStart(s), Math.ceil(sampleRate / 1000));
  }

  private segmentStart(segment: number): number {
    return Math.floor((segment * this.sampleRate) / 1000);
  }

  push(power: Float64Array, level: Float32Array, frames: number): void {
    for (let i = 0; i < frames; i++) {
      if (level[i]! > this.peakLevel) {
        this.peakLevel = level[i]!;
        this.peakFrame = this.frames + i;
      }
    }
    let offset = 0;
    while (offset < frames) {
      const run = Math.min(frames - offset, this.segmentEnd - this.frames);
      let sum = this.segmentPower;
      for (let i = offset; i < offset + run; i++) sum += power[i]!;
      this.segmentPower = sum;
      this.levels.writeRun(this.frames, level, offset, run);
      this.frames += run;
      offset += run;
      if (this.frames === this.segmentEnd) this.closeSegment();
    }
  }

  private closeSegment(): void {
    const segment = this.segments++;
    this.recentPowers[segment % SEGMENTS_PER_WINDOW] = this.segmentPower;
    this.segmentPower = 0;
    this.segmentEnd = this.segmentStart(segment + 2);
    if (segment >= SEGMENTS_PER_WINDOW - 1) this.closeWindow(segment - SEGMENTS_PER_WINDOW + 1, segment);
    const leaving = segment - RECENT_SEGMENTS + 1;
    if (leaving >= 0) this.levels.retire(leaving, this.isWanted);
  }

  private closeWindow(first: number, last: number): void {
    let sum = 0;
    for (let s = first; s <= last; s++) sum += this.recentPowers[s % SEGMENTS_PER_WINDOW]!;
    const meanSquare = sum / ((this.frames - this.segmentStart(first)) * this.channelCount);
    const energy = Math.fround(10 * Math.log10(meanSquare));
    this.envelope.push(energy);
    this.candidates.add(first, energy);
  }

  finish(): Timing {
    if (this.frames === 0) return NO_TIMING;
    if (this.frames > this.segmentStart(this.segments)) this.closeSegment();
    const segmentCount = this.segments;
    if (this.envelope.length === 0) this.closeWindow(0, segmentCount - 1);
    const peakDb = this.candidates.peak;
    if (!(peakDb >= -70)) return NO_TIMING;
    const threshold = thresholdDb(peakDb, nearestRankPercentile(this.envelope.view(), 5));
    const amplitude = 10 ** (threshold / 20);
    const onsetWindow = this.candidates.onsetWindow(threshold);
    const tailWindow = this.candidates.tailWindow(threshold);
    const lastSegment = (window: number) => Math.min(window + SEGMENTS_PER_WINDOW - 1, segmentCount - 1);
    const onsetFrame = this.firstFrameAtLeast(onsetWindow, lastSegment(onsetWindow), amplitude);
    const tailFrame = this.lastFrameAtLeast(tailWindow, lastSegment(tailWindow), amplitude) + 1;
    return timingFromFrames(this.sampleRate, onsetFrame, this.peakFrame, tailFrame);
  }

  private segmentLevels(segment: number): { start: number; levels: Float32Array } {
    const start = this.segmentStart(segment);
    const end = Math.min(this.segmentStart(segment + 1), this.frames);
    return { start, levels: this.levels.levelsOf(segment, start, end) };
  }

  private firstFrameAtLeast(firstSegment: number, lastSegment: number, amplitude: number): number {
    for (let s = firstSegment; s <= lastSegment; s++) {
      const { start, levels } = this.segmentLevels(s);
      for (let i = 0; i < levels.length; i++) if (levels[i]! >= amplitude) return start + i;
    }
    throw new Error('timing: the onset window has no sample at the threshold');
  }

  private lastFrameAtLeast(firstSegment: number, lastSegment: number, amplitude: number): number {
    for (let s = lastSegment; s >= firstSegment; s--) {
      const { start, levels } = this.segmentLevels(s);
      for (let i = levels.length - 1; i >= 0; i--) if (levels[i]! >= amplitude) return start + i;
    }
    throw new Error('timing: the tail window has no sample at the threshold');
  }
}
