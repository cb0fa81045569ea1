/** Amplitude envelopes, applied in place so notes need no second buffer. */

/** Linear attack, then an exponential decay that reaches -60 dB after `decaySeconds`. */
export function applyPercussive(
  buffer: Float32Array,
  sampleRate: number,
  attackSeconds: number,
  decaySeconds: number,
): void {
  const attack = Math.max(1, Math.round(attackSeconds * sampleRate));
  const factor = Math.exp(Math.log(0.001) / Math.max(1, decaySeconds * sampleRate));
  let level = 1;
  for (let i = 0; i < buffer.length; i++) {
    if (i < attack) {
      buffer[i] = buffer[i]! * (i / attack);
    } else {
      buffer[i] = buffer[i]! * level;
      level *= factor;
    }
  }
}

export interface Adsr {
  attack: number;
  decay: number;
  /** Level held after the decay, 0..1. */
  sustain: number;
  release: number;
}

/** The note is held for the buffer minus its release and falls to silence exactly at the end. */
export function applyAdsr(buffer: Float32Array, sampleRate: number, envelope: Adsr): void {
  const length = buffer.length;
  const release = Math.min(length, Math.max(1, Math.round(envelope.release * sampleRate)));
  const releaseStart = length - release;
  const attack = Math.min(releaseStart, Math.max(1, Math.round(envelope.attack * sampleRate)));
  const decayFactor = Math.exp(-1 / Math.max(1, (envelope.decay * sampleRate) / 4));
  const sustain = envelope.sustain;
  let level = 0;
  let above = 1 - sustain;
  for (let i = 0; i < releaseStart; i++) {
    if (i < attack) {
      level = i / attack;
    } else {
      level = sustain + above;
      above *= decayFactor;
    }
    buffer[i] = buffer[i]! * level;
  }
  const releaseFrom = releaseStart > 0 ? level : 1;
  for (let i = 0; i < release; i++) {
    const remaining = 1 - i / release;
    buffer[releaseStart + i] = buffer[releaseStart + i]! * releaseFrom * remaining * remaining;
  }
}

/** Piecewise-linear gain through (seconds, gain) points; holds the last gain after the last point. */
export function applyBreakpoints(
  buffer: Float32Array,
  sampleRate: number,
  points: readonly (readonly [number, number])[],
): void {
  let segment = 0;
  for (let i = 0; i < buffer.length; i++) {
    const t = i / sampleRate;
    while (segment < points.length - 1 && points[segment + 1]![0] <= t) segment++;
    const [t0, g0] = points[segment]!;
    const next = points[segment + 1];
    let gain = g0;
    if (next !== undefined && t > t0) gain = g0 + ((next[1] - g0) * (t - t0)) / (next[0] - t0);
    buffer[i] = buffer[i]! * gain;
  }
}

/** Raised-cosine fades: smooth enough that starts and ends never click. */
export function applyFades(buffer: Float32Array, fadeInSamples: number, fadeOutSamples: number): void {
  const fadeIn = Math.min(buffer.length, fadeInSamples);
  for (let i = 0; i < fadeIn; i++) buffer[i] = buffer[i]! * 0.5 * (1 - Math.cos((Math.PI * i) / fadeIn));
  const fadeOut = Math.min(buffer.length, fadeOutSamples);
  const end = buffer.length - 1;
  for (let i = 0; i < fadeOut; i++) buffer[end - i] = buffer[end - i]! * 0.5 * (1 - Math.cos((Math.PI * i) / fadeOut));
}
