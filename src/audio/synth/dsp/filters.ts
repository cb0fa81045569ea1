/** Filters that run in place over whole buffers. */

export type FilterMode = 'lowpass' | 'bandpass' | 'highpass';

/** Cutoff in Hz, fixed or as a function of time in seconds (evaluated once per block). */
export type Cutoff = number | ((seconds: number) => number);

const COEFFICIENT_BLOCK = 32;

/**
 * Topology-preserving state-variable filter (Zavalishin): it stays stable and quiet while its
 * cutoff moves, which sweeps (whooshes, wind, wah) need and a plain biquad does not give.
 */
export function stateVariableFilter(
  buffer: Float32Array,
  sampleRate: number,
  mode: FilterMode,
  q: number,
  cutoff: Cutoff,
): void {
  const k = 1 / q;
  const nyquistGuard = sampleRate * 0.45;
  // The three outputs are mixes of input, band and low: choosing weights up front keeps the loop branch-free.
  const inputWeight = mode === 'highpass' ? 1 : 0;
  const bandWeight = mode === 'bandpass' ? 1 : mode === 'highpass' ? -k : 0;
  const lowWeight = mode === 'lowpass' ? 1 : mode === 'highpass' ? -1 : 0;
  const coefficientsAt = (hz: number): [number, number, number] => {
    const g = Math.tan((Math.PI * Math.min(nyquistGuard, Math.max(10, hz))) / sampleRate);
    const a1 = 1 / (1 + g * (g + k));
    return [a1, g * a1, g * g * a1];
  };
  let ic1 = 0;
  let ic2 = 0;
  let [a1, a2, a3] = coefficientsAt(typeof cutoff === 'number' ? cutoff : cutoff(0));
  const length = buffer.length;
  for (let start = 0; start < length; start += COEFFICIENT_BLOCK) {
    if (typeof cutoff !== 'number' && start > 0) [a1, a2, a3] = coefficientsAt(cutoff(start / sampleRate));
    const end = typeof cutoff === 'number' ? length : Math.min(length, start + COEFFICIENT_BLOCK);
    for (let i = start; i < end; i++) {
      const v0 = buffer[i]!;
      const v3 = v0 - ic2;
      const v1 = a1 * ic1 + a2 * v3;
      const v2 = ic2 + a2 * ic1 + a3 * v3;
      ic1 = 2 * v1 - ic1;
      ic2 = 2 * v2 - ic2;
      buffer[i] = inputWeight * v0 + bandWeight * v1 + lowWeight * v2;
    }
    if (typeof cutoff === 'number') break;
  }
}

/** 6 dB/octave low-pass: cheap darkening for noise beds and lo-fi tone. */
export function onePoleLowpass(buffer: Float32Array, sampleRate: number, hz: number): void {
  const a = 1 - Math.exp((-2 * Math.PI * hz) / sampleRate);
  let state = 0;
  for (let i = 0; i < buffer.length; i++) {
    state += a * (buffer[i]! - state);
    buffer[i] = state;
  }
}

/** 6 dB/octave high-pass; at a few Hz it is a DC blocker. */
export function onePoleHighpass(buffer: Float32Array, sampleRate: number, hz: number): void {
  const r = Math.exp((-2 * Math.PI * hz) / sampleRate);
  let previousIn = 0;
  let previousOut = 0;
  for (let i = 0; i < buffer.length; i++) {
    const x = buffer[i]!;
    previousOut = x - previousIn + r * previousOut;
    previousIn = x;
    buffer[i] = previousOut;
  }
}
