import type { Random } from '../random.ts';

/**
 * Karplus–Strong plucked string: a burst of noise recirculating through a delay of one period
 * and an averaging filter. Strings, harps and upright bass for a few operations per sample.
 */
export function renderPluck(
  length: number,
  sampleRate: number,
  hz: number,
  rng: Random,
  brightness: number,
  decaySeconds: number,
): Float32Array {
  const out = new Float32Array(length);
  // The averaging filter delays by half a sample; a fractional delay tunes the rest exactly.
  const period = Math.max(2, sampleRate / hz - 0.5);
  const whole = Math.floor(period);
  const fraction = period - whole;
  const loss = 0.001 ** (1 / Math.max(1, decaySeconds * hz));
  const excitation = Math.min(length, whole + 1);
  const smoothing = 1 - brightness * 0.9;
  let burst = 0;
  for (let i = 0; i < excitation; i++) {
    burst += (1 - smoothing) * (rng.bipolar() - burst);
    out[i] = burst;
  }
  const a = 0.5 * loss * (1 - fraction);
  const b = 0.5 * loss;
  const c = 0.5 * loss * fraction;
  for (let i = whole + 2; i < length; i++) {
    out[i] = out[i]! + a * out[i - whole]! + b * out[i - whole - 1]! + c * out[i - whole - 2]!;
  }
  return out;
}
