/**
 * The inner loops of the true-peak meter. Window i is buffer[i, i + 32) and the interpolated
 * points lie between window[15] and window[16]. Each kernel returns the larger of `peak` and
 * every interpolated |value| it had to compute.
 *
 * Per position the 4 centre pairs (samples 12..19) are summed first; if that estimate plus
 * `outerBound` (the most the outer taps can add) cannot beat the peak, the position is done.
 * Otherwise the 12 outer pairs are added to the same sums.
 *
 * Indices are literal on purpose: V8 drops bounds checks and unrolls these loops only when the
 * numbers are constants (imported bindings are re-checked on every access and cost 3-5x here).
 */
import { CENTRE_PAIRS_START, TAPS_PER_PHASE } from './interpolator.ts';

if (TAPS_PER_PHASE !== 32 || CENTRE_PAIRS_START !== 12) throw new Error('true-peak kernels are written for 32 taps');

/** Margin so that a skipped value can never be the one that rounding would have made the peak. */
export const SKIP_MARGIN = 1 + 1e-9;

export interface FoldedPhases {
  half: Float64Array;
  quarterEven: Float64Array;
  quarterOdd: Float64Array;
}

/** 4x oversampling: +1/4 = even + odd, +1/2 = half, +3/4 = even - odd, over folded pairs. */
export function peakOfThreePhases(
  buffer: Float32Array,
  start: number,
  end: number,
  tables: FoldedPhases,
  outerBound: number,
  peak: number,
): number {
  const { half, quarterEven: even, quarterOdd: odd } = tables;
  // (No destructuring here: in this loop it would allocate.)
  const h12 = half[12]!,
    h13 = half[13]!,
    h14 = half[14]!,
    h15 = half[15]!;
  const e12 = even[12]!,
    e13 = even[13]!,
    e14 = even[14]!,
    e15 = even[15]!;
  const o12 = odd[12]!,
    o13 = odd[13]!,
    o14 = odd[14]!,
    o15 = odd[15]!;
  let skipAbove = peak / SKIP_MARGIN - outerBound;
  for (let i = start; i < end; i++) {
    const a12 = buffer[i + 12]!,
      a13 = buffer[i + 13]!,
      a14 = buffer[i + 14]!,
      a15 = buffer[i + 15]!;
    const b12 = buffer[i + 19]!,
      b13 = buffer[i + 18]!,
      b14 = buffer[i + 17]!,
      b15 = buffer[i + 16]!;
    const s12 = a12 + b12,
      s13 = a13 + b13,
      s14 = a14 + b14,
      s15 = a15 + b15;
    let h = h12 * s12 + h13 * s13 + h14 * s14 + h15 * s15;
    let e = e12 * s12 + e13 * s13 + e14 * s14 + e15 * s15;
    let o = o12 * (a12 - b12) + o13 * (a13 - b13) + o14 * (a14 - b14) + o15 * (a15 - b15);
    if (largestOfPhases(h, e, o) <= skipAbove) continue;
    for (let j = 0; j < 12; j++) {
      const a = buffer[i + j]!;
      const b = buffer[i + 31 - j]!;
      const sum = a + b;
      h += half[j]! * sum;
      e += even[j]! * sum;
      o += odd[j]! * (a - b);
    }
    const value = largestOfPhases(h, e, o);
    if (value > peak) {
      peak = value;
      skipAbove = peak / SKIP_MARGIN - outerBound;
    }
  }
  return peak;
}

/** 2x oversampling: the half-sample phase only. */
export function peakOfHalfPhase(
  buffer: Float32Array,
  start: number,
  end: number,
  half: Float64Array,
  outerBound: number,
  peak: number,
): number {
  const h12 = half[12]!,
    h13 = half[13]!,
    h14 = half[14]!,
    h15 = half[15]!;
  let skipAbove = peak / SKIP_MARGIN - outerBound;
  for (let i = start; i < end; i++) {
    let h =
      h12 * (buffer[i + 12]! + buffer[i + 19]!) +
      h13 * (buffer[i + 13]! + buffer[i + 18]!) +
      h14 * (buffer[i + 14]! + buffer[i + 17]!) +
      h15 * (buffer[i + 15]! + buffer[i + 16]!);
    if (Math.abs(h) <= skipAbove) continue;
    for (let j = 0; j < 12; j++) h += half[j]! * (buffer[i + j]! + buffer[i + 31 - j]!);
    if (Math.abs(h) > peak) {
      peak = Math.abs(h);
      skipAbove = peak / SKIP_MARGIN - outerBound;
    }
  }
  return peak;
}

/** max(|e + o|, |h|, |e - o|) = max(|e| + |o|, |h|). */
function largestOfPhases(h: number, e: number, o: number): number {
  const quarter = (e < 0 ? -e : e) + (o < 0 ? -o : o);
  const middle = h < 0 ? -h : h;
  return Math.max(quarter, middle);
}
