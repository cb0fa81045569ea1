/**
 * K-weighting (ITU-R BS.1770): a high-shelf ("head") biquad then a high-pass ("RLB") biquad.
 *
 * BS.1770 prints coefficients for 48 kHz only. Like libebur128 (and so ffmpeg's ebur128), we
 * derive them for any rate from the analog prototypes through the bilinear transform, which
 * reproduces the printed 48 kHz values and keeps a tone's reading independent of the rate.
 */

/** Second-order section with a0 normalised to 1: y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2. */
export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

const SHELF_HZ = 1681.974450955533;
const SHELF_GAIN_DB = 3.999843853973347;
const SHELF_Q = 0.7071752369554196;
/** Exponent giving the shelf's band gain Vb from its high-frequency gain Vh (libebur128's value). */
const SHELF_BAND_EXPONENT = 0.4996667741545416;
const HIGHPASS_HZ = 38.13547087602444;
const HIGHPASS_Q = 0.5003270373238773;

export function shelfBiquad(sampleRate: number): Biquad {
  const k = Math.tan((Math.PI * SHELF_HZ) / sampleRate);
  const vh = 10 ** (SHELF_GAIN_DB / 20);
  const vb = vh ** SHELF_BAND_EXPONENT;
  const a0 = 1 + k / SHELF_Q + k * k;
  return {
    b0: (vh + (vb * k) / SHELF_Q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / SHELF_Q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / SHELF_Q + k * k) / a0,
  };
}

/** The numerator stays 1, -2, 1 (not divided by a0), as printed in BS.1770; its -0.691 offset assumes it. */
export function highpassBiquad(sampleRate: number): Biquad {
  const k = Math.tan((Math.PI * HIGHPASS_HZ) / sampleRate);
  const a0 = 1 + k / HIGHPASS_Q + k * k;
  return { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / HIGHPASS_Q + k * k) / a0 };
}

/**
 * One channel's K-weighting filter. State lives in plain fields (transposed direct form II),
 * so a run of samples is filtered in one tight loop whatever the chunking.
 */
export class KWeightingFilter {
  private readonly shelf: Biquad;
  private readonly highpass: Biquad;
  private s1 = 0;
  private s2 = 0;
  private h1 = 0;
  private h2 = 0;

  constructor(sampleRate: number) {
    this.shelf = shelfBiquad(sampleRate);
    this.highpass = highpassBiquad(sampleRate);
  }

  /**
   * Filters input[start, end) and returns `sum` plus the squares of the filtered samples.
   * The caller passes its running sum in so that chunked and whole-buffer runs add in the
   * same order and give bit-identical results.
   */
  accumulateSquares(input: Float32Array, start: number, end: number, sum: number): number {
    const { b0, b1, b2, a1, a2 } = this.shelf;
    const ha1 = this.highpass.a1;
    const ha2 = this.highpass.a2;
    let s1 = this.s1;
    let s2 = this.s2;
    let h1 = this.h1;
    let h2 = this.h2;
    let acc = sum;
    for (let i = start; i < end; i++) {
      const x = input[i]!;
      const y = b0 * x + s1;
      s1 = b1 * x - a1 * y + s2;
      s2 = b2 * x - a2 * y;
      const z = y + h1;
      h1 = -2 * y - ha1 * z + h2;
      h2 = y - ha2 * z;
      acc += z * z;
    }
    this.s1 = s1;
    this.s2 = s2;
    this.h1 = h1;
    this.h2 = h2;
    return acc;
  }
}
