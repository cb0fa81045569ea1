/** Buffers and mixing. Voices render into their own buffers and are added into a mix here. */

export function samplesFor(seconds: number, sampleRate: number): number {
  return Math.max(1, Math.round(seconds * sampleRate));
}

/** Adds `source` into `target` from `offset` on, clipped to the target's end. */
export function mixInto(target: Float32Array, source: Float32Array, offset: number, gain = 1): void {
  const start = Math.max(0, offset);
  const end = Math.min(target.length, offset + source.length);
  for (let i = start; i < end; i++) target[i] = target[i]! + source[i - offset]! * gain;
}

/** Equal-power pan: -1 is left, 0 centre, 1 right. */
export function panGains(pan: number): [number, number] {
  const angle = ((Math.max(-1, Math.min(1, pan)) + 1) * Math.PI) / 4;
  return [Math.cos(angle), Math.sin(angle)];
}

export function mixPanned(
  left: Float32Array,
  right: Float32Array,
  source: Float32Array,
  offset: number,
  gain: number,
  pan: number,
): void {
  const [leftGain, rightGain] = panGains(pan);
  mixInto(left, source, offset, gain * leftGain);
  mixInto(right, source, offset, gain * rightGain);
}

export function scaleInPlace(buffer: Float32Array, gain: number): void {
  for (let i = 0; i < buffer.length; i++) buffer[i] = buffer[i]! * gain;
}

export function peakOf(buffer: Float32Array): number {
  let peak = 0;
  for (let i = 0; i < buffer.length; i++) {
    const magnitude = Math.abs(buffer[i]!);
    if (magnitude > peak) peak = magnitude;
  }
  return peak;
}

/**
 * Gentle saturation (a Padé approximation of tanh): warms and rounds peaks without harsh edges.
 * `inputGain` scales first, in the same pass. A full-scale input comes out at full scale.
 */
export function saturateInPlace(buffer: Float32Array, drive: number, inputGain = 1): void {
  const norm = 1 / softClip(drive);
  const gain = drive * inputGain;
  for (let i = 0; i < buffer.length; i++) buffer[i] = softClip(buffer[i]! * gain) * norm;
}

function softClip(x: number): number {
  const clamped = x > 3 ? 3 : Math.max(x, -3);
  const square = clamped * clamped;
  return (clamped * (27 + square)) / (27 + 9 * square);
}
