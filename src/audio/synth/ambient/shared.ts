import type { Random } from '../random.ts';

/**
 * Ambience lengths: mostly 5–10 s, some to 20 s, a few up to a minute. Long ones are a
 * minority because each second costs time to synthesize, encode and analyze.
 */
export function pickAmbientSeconds(rng: Random): number {
  // Mostly short beds; a few long ones keep "up to a minute" honest. Every second of a demo
  // sound costs encoding and analysis time at first start (measured: about 30x real time a core).
  const bucket = rng.weighted([
    [[5, 7], 75],
    [[7, 12], 20],
    [[12, 60], 5],
  ] as const);
  return Math.round(rng.range(bucket[0], bucket[1]) * 10) / 10;
}

/** A slowly wandering value in [0, 1]: random points `spacing` seconds apart, eased between. */
export function smoothRandomCurve(rng: Random, seconds: number, spacingSeconds: number): (t: number) => number {
  const points = new Float32Array(Math.ceil(seconds / spacingSeconds) + 2);
  for (let i = 0; i < points.length; i++) points[i] = rng.next();
  return (t) => {
    const position = Math.max(0, t / spacingSeconds);
    const index = Math.min(points.length - 2, Math.floor(position));
    const fraction = Math.min(1, position - index);
    const eased = fraction * fraction * (3 - 2 * fraction);
    return points[index]! + (points[index + 1]! - points[index]!) * eased;
  };
}

const CURVE_BLOCK = 64;

/** Multiplies by gain(t), evaluated once per block and interpolated: cheap enough for minutes. */
export function applyGainCurve(buffer: Float32Array, sampleRate: number, gain: (t: number) => number): void {
  let current = gain(0);
  for (let start = 0; start < buffer.length; start += CURVE_BLOCK) {
    const end = Math.min(buffer.length, start + CURVE_BLOCK);
    const next = gain(end / sampleRate);
    const step = (next - current) / CURVE_BLOCK;
    for (let i = start; i < end; i++) buffer[i] = buffer[i]! * (current + step * (i - start));
    current = next;
  }
}

/** Fades for beds of sound: long enough to enter and leave gently, short next to the whole. */
export function ambientFadeSeconds(seconds: number): number {
  return Math.min(1, seconds * 0.05);
}

/**
 * Two channels from one rendering: the right hears the same bed a little later. For noise beds
 * a delay of a fraction of a second is heard as width, not echo, and halves the work.
 * Render `length + offset` samples; events that would echo (pops, drops) go on afterwards.
 */
export function stereoFromBed(bed: Float32Array, length: number, offset: number): Float32Array[] {
  return [bed.slice(0, length), bed.slice(offset, offset + length)];
}

export const STEREO_OFFSET_SECONDS = 0.6;

/** Beds sit under other sounds: quieter than effects, each a little different. */
export function ambientLoudnessCeiling(rng: Random): number {
  return rng.range(-21, -16);
}
