/**
 * A small Schroeder reverb (parallel damped combs, then allpasses). Mono in, stereo out: the two
 * sides use different allpass delays, which is enough width for loops and rooms at low cost.
 * The four combs run in one pass, and each side's two allpasses in another: one trip through
 * memory each instead of one per filter.
 */

const COMB_MS = [29.7, 37.1, 41.1, 43.7] as const;
const LEFT_ALLPASS_MS = [5.0, 1.7] as const;
const RIGHT_ALLPASS_MS = [5.6, 2.3] as const;
const ALLPASS_FEEDBACK = 0.5;

export interface ReverbSpec {
  /** Time for the tail to fall by 60 dB. */
  decaySeconds: number;
  /** 0..1: how much each pass through a comb loses its highs. */
  damping: number;
  /** Scales the room: 1 is a mid-sized room, 0.5 a small one, 2 a hall. */
  size: number;
}

function delayOf(ms: number, size: number, sampleRate: number): number {
  return Math.max(1, Math.round((ms * size * sampleRate) / 1000));
}

/** Adds the reverberated `send` to left and right at `wet` level. */
export function addReverb(
  left: Float32Array,
  right: Float32Array,
  send: Float32Array,
  sampleRate: number,
  spec: ReverbSpec,
  wet: number,
): void {
  const length = send.length;
  const [d0, d1, d2, d3] = COMB_MS.map((ms) => delayOf(ms, spec.size, sampleRate)) as [number, number, number, number];
  const feedback = (delay: number) => 0.001 ** (delay / sampleRate / spec.decaySeconds);
  const [f0, f1, f2, f3] = [feedback(d0), feedback(d1), feedback(d2), feedback(d3)];
  const [l0, l1, l2, l3] = [new Float32Array(d0), new Float32Array(d1), new Float32Array(d2), new Float32Array(d3)];
  const damping = spec.damping;
  let c0 = 0,
    c1 = 0,
    c2 = 0,
    c3 = 0;
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  const combed = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const x = send[i]!;
    const o0 = l0[c0]!,
      o1 = l1[c1]!,
      o2 = l2[c2]!,
      o3 = l3[c3]!;
    s0 = o0 + damping * (s0 - o0);
    s1 = o1 + damping * (s1 - o1);
    s2 = o2 + damping * (s2 - o2);
    s3 = o3 + damping * (s3 - o3);
    l0[c0] = x + s0 * f0;
    l1[c1] = x + s1 * f1;
    l2[c2] = x + s2 * f2;
    l3[c3] = x + s3 * f3;
    combed[i] = o0 + o1 + o2 + o3;
    if (++c0 === d0) c0 = 0;
    if (++c1 === d1) c1 = 0;
    if (++c2 === d2) c2 = 0;
    if (++c3 === d3) c3 = 0;
  }
  const gain = wet / COMB_MS.length;
  addAllpassed(left, combed, sampleRate, LEFT_ALLPASS_MS, spec.size, gain);
  addAllpassed(right, combed, sampleRate, RIGHT_ALLPASS_MS, spec.size, gain);
}

function addAllpassed(
  target: Float32Array,
  input: Float32Array,
  sampleRate: number,
  delaysMs: readonly [number, number],
  size: number,
  gain: number,
): void {
  const da = delayOf(delaysMs[0], size, sampleRate);
  const db = delayOf(delaysMs[1], size, sampleRate);
  const la = new Float32Array(da);
  const lb = new Float32Array(db);
  let ca = 0;
  let cb = 0;
  const end = Math.min(target.length, input.length);
  for (let i = 0; i < end; i++) {
    const x = input[i]!;
    const delayedA = la[ca]!;
    la[ca] = x + delayedA * ALLPASS_FEEDBACK;
    const y = delayedA - x * ALLPASS_FEEDBACK;
    const delayedB = lb[cb]!;
    lb[cb] = y + delayedB * ALLPASS_FEEDBACK;
    target[i] = target[i]! + (delayedB - y * ALLPASS_FEEDBACK) * gain;
    if (++ca === da) ca = 0;
    if (++cb === db) cb = 0;
  }
}
