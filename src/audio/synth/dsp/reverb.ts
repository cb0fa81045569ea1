/**
 * A small Schroeder reverb (parallel damped combs, then allpasses). Mono in, stereo out: the two
 * sides use different allpass delays, which is enough width for loops and rooms at low cost.
 */

const COMB_MS = [29.7, 37.1, 41.1, 43.7];
const LEFT_ALLPASS_MS = [5.0, 1.7];
const RIGHT_ALLPASS_MS = [5.6, 2.3];
const ALLPASS_FEEDBACK = 0.5;

export interface ReverbSpec {
  /** Time for the tail to fall by 60 dB. */
  decaySeconds: number;
  /** 0..1: how much each pass through a comb loses its highs. */
  damping: number;
  /** Scales the room: 1 is a mid-sized room, 0.5 a small one, 2 a hall. */
  size: number;
}

/** Adds the reverberated `send` to left and right at `wet` level. */
export function addReverb(left: Float32Array, right: Float32Array, send: Float32Array, sampleRate: number, spec: ReverbSpec, wet: number): void {
  const length = send.length;
  const combed = new Float32Array(length);
  for (const ms of COMB_MS) {
    const delay = Math.max(1, Math.round((ms * spec.size * sampleRate) / 1000));
    const feedback = Math.pow(0.001, delay / sampleRate / spec.decaySeconds);
    const line = new Float32Array(delay);
    let cursor = 0;
    let lowpassed = 0;
    for (let i = 0; i < length; i++) {
      const out = line[cursor]!;
      lowpassed = out + spec.damping * (lowpassed - out);
      line[cursor] = send[i]! + lowpassed * feedback;
      combed[i] = combed[i]! + out;
      if (++cursor === delay) cursor = 0;
    }
  }
  const gain = wet / COMB_MS.length;
  addAllpassed(left, combed, sampleRate, LEFT_ALLPASS_MS, spec.size, gain);
  addAllpassed(right, combed, sampleRate, RIGHT_ALLPASS_MS, spec.size, gain);
}

function addAllpassed(target: Float32Array, input: Float32Array, sampleRate: number, delaysMs: readonly number[], size: number, gain: number): void {
  const signal = Float32Array.from(input);
  for (const ms of delaysMs) {
    const delay = Math.max(1, Math.round((ms * size * sampleRate) / 1000));
    const line = new Float32Array(delay);
    let cursor = 0;
    for (let i = 0; i < signal.length; i++) {
      const delayed = line[cursor]!;
      const x = signal[i]!;
      line[cursor] = x + delayed * ALLPASS_FEEDBACK;
      signal[i] = delayed - x * ALLPASS_FEEDBACK;
      if (++cursor === delay) cursor = 0;
    }
  }
  const end = Math.min(target.length, signal.length);
  for (let i = 0; i < end; i++) target[i] = target[i]! + signal[i]! * gain;
}
