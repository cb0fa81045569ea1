/**
 * Polyphase interpolation filters for true-peak metering (BS.1770 Annex 2 asks for a
 * low-pass FIR oversampler; it allows any design that meets its accuracy).
 *
 * We use a Kaiser-windowed sinc cut at the input's Nyquist frequency, designed per phase:
 * phase p estimates the signal at n + p/factor from the TAPS_PER_PHASE samples around it.
 * Length 32 and beta 9 are the window of ffmpeg's default resampler, which its ebur128 meter
 * (the reference users check us with) upsamples through: content near Nyquist, which decides
 * the peaks of broadband noise, is then weighed the same. Every phase is flat within 0.001 dB
 * up to 0.4 fs, -0.02 dB at 0.42 fs, -0.8 dB at 0.45 fs. Phase 0 is the sample itself.
 *
 * The phases are symmetric (the half-sample one) or mirror images (the quarter ones), so the
 * meter works on folded pairs of samples x[a] ± x[b] that lie equally far from the point: the
 * tables below hold half as many coefficients, and the meter does half the multiplications.
 */

export const TAPS_PER_PHASE = 32;
/** Sample pairs per window: pair j is (window[j], window[TAPS_PER_PHASE - 1 - j]). */
export const PAIRS = TAPS_PER_PHASE / 2;
/**
 * Pairs [CENTRE_PAIRS_START, PAIRS) are the 8 samples nearest the point. They alone give an
 * estimate that is off by at most `outerGainBound` times the largest |sample| around, so most
 * positions are dismissed after a quarter of the work.
 */
export const CENTRE_PAIRS_START = PAIRS - 4;
const KAISER_BETA = 9;

export interface Interpolator {
  factor: number;
  /** Half-sample phase, per pair (both samples of a pair have the same coefficient). */
  half: Float64Array;
  /** Quarter phases on pairs: value at +1/4 = sum(even * sum + odd * difference), at +3/4 with -odd. */
  quarterEven: Float64Array;
  quarterOdd: Float64Array;
  /**
   * Largest sum of absolute coefficients over the phases: no interpolated value can exceed the
   * largest |sample| under the filter times this, which lets the meter skip quiet stretches.
   */
  gainBound: number;
  /** The same sum over the taps outside the centre pairs only. */
  outerGainBound: number;
}

/** BS.1770 Annex 2: 4x below 96 kHz, 2x up to 192 kHz, none from 192 kHz on. */
export function oversamplingFactor(sampleRate: number): number {
  if (sampleRate < 96000) return 4;
  if (sampleRate < 192000) return 2;
  return 1;
}

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 100; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return sum;
}

/**
 * Phase at `fraction` of a sample past window[PAIRS - 1]: tap j multiplies window[j], which is
 * j - (PAIRS - 1) samples from there. Normalised to unit gain at DC.
 */
function designPhase(fraction: number): Float64Array {
  const phase = new Float64Array(TAPS_PER_PHASE);
  let sum = 0;
  for (let j = 0; j < TAPS_PER_PHASE; j++) {
    const distance = fraction - (j - PAIRS + 1);
    const t = distance / PAIRS;
    const window = besselI0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - t * t))) / besselI0(KAISER_BETA);
    phase[j] = (Math.sin(Math.PI * distance) / (Math.PI * distance)) * window;
    sum += phase[j]!;
  }
  return phase.map((c) => c / sum);
}

function absSums(phase: Float64Array): { all: number; outer: number } {
  let all = 0;
  let outer = 0;
  phase.forEach((c, j) => {
    all += Math.abs(c);
    if (j < CENTRE_PAIRS_START || j >= TAPS_PER_PHASE - CENTRE_PAIRS_START) outer += Math.abs(c);
  });
  return { all, outer };
}

export function designInterpolator(factor: number): Interpolator {
  const half = new Float64Array(PAIRS);
  const quarterEven = new Float64Array(PAIRS);
  const quarterOdd = new Float64Array(PAIRS);
  const phases = factor === 1 ? [] : factor === 2 ? [designPhase(0.5)] : [designPhase(0.25), designPhase(0.5)];
  const halfPhase = phases[phases.length - 1];
  const quarterPhase = factor === 4 ? phases[0] : undefined;
  for (let j = 0; j < PAIRS; j++) {
    const mirror = TAPS_PER_PHASE - 1 - j;
    if (halfPhase) half[j] = (halfPhase[j]! + halfPhase[mirror]!) / 2;
    if (quarterPhase) {
      quarterEven[j] = (quarterPhase[j]! + quarterPhase[mirror]!) / 2;
      quarterOdd[j] = (quarterPhase[j]! - quarterPhase[mirror]!) / 2;
    }
  }
  const sums = phases.map(absSums);
  return {
    factor,
    half,
    quarterEven,
    quarterOdd,
    gainBound: Math.max(1, ...sums.map((s) => s.all)),
    outerGainBound: Math.max(0, ...sums.map((s) => s.outer)),
  };
}
