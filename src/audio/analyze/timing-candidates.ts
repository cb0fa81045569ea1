/**
 * Which 1 ms envelope windows could still turn out to be the onset window (the first with
 * E >= T) or the tail window (the last with E >= T), while T is not yet known.
 *
 * T always lies in [Epk - 40, Epk - 12] and Epk only grows, so:
 * - the onset window is a record (E above every earlier window); records more than 40 dB under
 *   the running peak can never reach T and are dropped;
 * - the tail window is a suffix maximum (E above every later window); a window is dropped as
 *   soon as a later one is at least as loud.
 * For ordinary sounds both lists hold a handful of windows.
 */
import type { GrowableFloat32 } from './growable.ts';

/** T >= Epk - 40 dB. */
const RANGE_UNDER_PEAK_DB = 40;
/** Windows below this cannot matter: timing is null unless Epk >= -70 dBFS, so T >= -110. */
const LOWEST_USEFUL_DB = -70 - RANGE_UNDER_PEAK_DB;
/** Segments covered by one window: it spans 10 ms of 1 ms segments. */
export const SEGMENTS_PER_WINDOW = 10;

export class TimingCandidates {
  /** Largest E so far (Epk once the sound has ended). */
  peak = -Infinity;
  private readonly onset: number[] = [];
  private onsetHead = 0;
  private readonly tail: number[] = [];

  constructor(private readonly envelope: GrowableFloat32) {}

  /** Window indices arrive in order; `energy` is envelope[window]. */
  add(window: number, energy: number): void {
    const isRecord = energy > this.peak;
    if (isRecord) this.peak = energy;
    const floor = Math.max(this.peak - RANGE_UNDER_PEAK_DB, LOWEST_USEFUL_DB);
    if (isRecord) {
      this.onset.push(window);
      while (this.onsetHead < this.onset.length && this.envelope.at(this.onset[this.onsetHead]!) < floor) {
        this.onsetHead++;
      }
      if (this.onsetHead > 1024) {
        this.onset.splice(0, this.onsetHead);
        this.onsetHead = 0;
      }
    }
    if (energy >= floor) {
      while (this.tail.length > 0 && this.envelope.at(this.tail[this.tail.length - 1]!) <= energy) this.tail.pop();
      this.tail.push(window);
    }
  }

  /** Whether a candidate window covers `segment` (windows segment - 9 ... segment do). */
  covers(segment: number): boolean {
    const first = segment - SEGMENTS_PER_WINDOW + 1;
    return hasWithin(this.onset, this.onsetHead, first, segment) || hasWithin(this.tail, 0, first, segment);
  }

  /** First window with E >= threshold; call once every window has been added. */
  onsetWindow(threshold: number): number {
    for (let i = this.onsetHead; i < this.onset.length; i++) {
      const window = this.onset[i]!;
      if (this.envelope.at(window) >= threshold) return window;
    }
    throw new Error('timing: no window reaches the threshold');
  }

  /** Last window with E >= threshold. */
  tailWindow(threshold: number): number {
    for (let i = this.tail.length - 1; i >= 0; i--) {
      const window = this.tail[i]!;
      if (this.envelope.at(window) >= threshold) return window;
    }
    throw new Error('timing: no window reaches the threshold');
  }
}

/** Whether sorted[from...] holds a value in [low, high], by binary search. */
function hasWithin(sorted: number[], from: number, low: number, high: number): boolean {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < low) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! <= high;
}
