/** The timing threshold rule and millisecond rounding of analysis.md, kept apart so tests can name them. */
import type { Timing } from '../types.ts';

/** T = min(max(Epk - 40, F + 12, -70), Epk - 12) in dBFS, from the envelope's peak and 5th percentile. */
export function thresholdDb(peakDb: number, floorDb: number): number {
  return Math.min(Math.max(peakDb - 40, floorDb + 12, -70), peakDb - 12);
}

export function framesToMs(sampleRate: number, frame: number): number {
  return Math.round((frame * 1000 * 1000) / sampleRate) / 1000;
}

export function timingFromFrames(sampleRate: number, onset: number, peak: number, tail: number): Timing {
  return {
    onset_ms: framesToMs(sampleRate, onset),
    peak_ms: framesToMs(sampleRate, peak),
    tail_ms: framesToMs(sampleRate, tail),
  };
}
