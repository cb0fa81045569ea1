import type { Random } from '../random.ts';

/**
 * Noise sources. Colours differ in how their energy falls with frequency. Noise is the hottest
 * loop in the synthesizer, so each source runs its own xorshift32 inline, seeded from the
 * sound's Random (still deterministic), instead of calling a method per sample.
 */

const INT_TO_UNIT = 1 / 2147483648;

function noiseSeed(rng: Random): number {
  return rng.nextUint32() | 1;
}

export function whiteNoise(length: number, rng: Random): Float32Array {
  const out = new Float32Array(length);
  let s = noiseSeed(rng);
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s * INT_TO_UNIT;
  }
  return out;
}

/** -3 dB/octave, like rain and wind; Paul Kellet's filter bank, scaled to about ±1 peaks. */
export function pinkNoise(length: number, rng: Random): Float32Array {
  const out = new Float32Array(length);
  let s = noiseSeed(rng);
  let b0 = 0,
    b1 = 0,
    b2 = 0,
    b3 = 0,
    b4 = 0,
    b5 = 0,
    b6 = 0;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const white = s * INT_TO_UNIT;
    b0 = 0.99886 * b0 + white * 0.0555179;
    b1 = 0.99332 * b1 + white * 0.0750759;
    b2 = 0.969 * b2 + white * 0.153852;
    b3 = 0.8665 * b3 + white * 0.3104856;
    b4 = 0.55 * b4 + white * 0.5329522;
    b5 = -0.7616 * b5 - white * 0.016898;
    out[i] = (b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362) * 0.2;
    b6 = white * 0.115926;
  }
  return out;
}

/** -6 dB/octave: rumble, surf and distant roar. A leaky integrator keeps it from drifting. */
export function brownNoise(length: number, rng: Random): Float32Array {
  const out = new Float32Array(length);
  let s = noiseSeed(rng);
  let state = 0;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    state = 0.995 * state + s * INT_TO_UNIT * 0.1;
    out[i] = state * 1.5;
  }
  return out;
}

/**
 * Adds sparse clicks (vinyl crackle, fire pops): each a spike smeared by a short ringing decay,
 * so it is heard as a tick rather than a digital impulse. Gaps between clicks are drawn from an
 * exponential distribution, so the cost is per click, not per sample.
 */
export function addCrackle(
  buffer: Float32Array,
  sampleRate: number,
  rng: Random,
  perSecond: number,
  level: number,
): void {
  const meanGap = sampleRate / perSecond;
  const ringLength = Math.round(sampleRate * 0.002);
  for (
    let at = Math.floor(-Math.log(1 - rng.next()) * meanGap);
    at < buffer.length;
    at += 1 + Math.floor(-Math.log(1 - rng.next()) * meanGap)
  ) {
    let ring = level * (0.3 + 0.7 * rng.next()) * (rng.chance(0.5) ? 1 : -1);
    const end = Math.min(buffer.length, at + ringLength);
    for (let i = at; i < end; i++) {
      buffer[i] = buffer[i]! + ring;
      ring *= -0.6;
    }
  }
}
