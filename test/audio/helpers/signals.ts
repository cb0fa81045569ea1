/** Deterministic test signals, and the measures the tests compare signals with. */
import type { PcmAudio } from '../../../src/audio/types.ts';

export function dbToAmplitude(db: number): number {
  return 10 ** (db / 20);
}

/** Seeded uniform generator (mulberry32), so every run sees the same "random" signals. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Approximately Gaussian noise of unit RMS (sum of four uniforms). */
export function gaussianNoise(random: () => number): () => number {
  return () => (random() + random() + random() + random() - 2) * Math.sqrt(3);
}

export function silence(frames: number): Float32Array {
  return new Float32Array(frames);
}

/** Sine with peak amplitude given in dBFS; `phase` in radians at sample 0. */
export function sine(sampleRate: number, hz: number, peakDb: number, frames: number, phase = 0): Float32Array {
  const amplitude = dbToAmplitude(peakDb);
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) out[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate + phase);
  return out;
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function stereo(channel: Float32Array): PcmAudio['channels'] {
  return [channel, channel.slice()];
}

/** Sum of partials with an attack/decay envelope: a crude note. */
export function note(sampleRate: number, hz: number, peakDb: number, seconds: number, partials = 6): Float32Array {
  const frames = Math.round(seconds * sampleRate);
  const out = new Float32Array(frames);
  const amplitude = dbToAmplitude(peakDb);
  const attack = Math.min(0.02 * sampleRate, frames / 4);
  for (let i = 0; i < frames; i++) {
    const envelope = (i < attack ? i / attack : 1) * Math.exp((-3 * i) / frames);
    let sum = 0;
    for (let k = 1; k <= partials; k++) sum += Math.sin((2 * Math.PI * hz * k * i) / sampleRate) / k;
    out[i] = (amplitude * envelope * sum) / 1.7;
  }
  return out;
}

/** Adds `part` into `target` starting at frame `at` (clipped to the target). */
export function mixInto(target: Float32Array, part: Float32Array, at: number): Float32Array {
  for (let i = 0; i < part.length && at + i < target.length; i++) target[at + i] = target[at + i]! + part[i]!;
  return target;
}

/** Exponential sweep from f0 to f1 Hz. */
export function chirp(sampleRate: number, f0: number, f1: number, peakDb: number, seconds: number): Float32Array {
  const frames = Math.round(seconds * sampleRate);
  const out = new Float32Array(frames);
  const amplitude = dbToAmplitude(peakDb);
  const k = Math.log(f1 / f0);
  for (let i = 0; i < frames; i++) {
    const t = i / sampleRate;
    out[i] = amplitude * Math.sin(((2 * Math.PI * f0 * seconds) / k) * (Math.exp((k * t) / seconds) - 1));
  }
  return out;
}

/** Noise of RMS `rmsDb`, optionally smoothed by a one-pole low-pass (0 = white). */
export function noise(seed: number, rmsDb: number, frames: number, smoothing = 0): Float32Array {
  const next = gaussianNoise(seededRandom(seed));
  const out = new Float32Array(frames);
  let state = 0;
  const gain = dbToAmplitude(rmsDb) * (smoothing > 0 ? Math.sqrt((1 + smoothing) / (1 - smoothing)) : 1);
  for (let i = 0; i < frames; i++) {
    state = smoothing * state + (1 - smoothing) * next();
    out[i] = gain * state;
  }
  return out;
}

/** Raised-cosine fade in and out over `frames` samples each (in place), to avoid edge ringing. */
export function fadeEdges(signal: Float32Array, frames: number): Float32Array {
  const n = Math.min(frames, Math.floor(signal.length / 2));
  for (let i = 0; i < n; i++) {
    const gain = 0.5 - 0.5 * Math.cos((Math.PI * i) / n);
    signal[i] = signal[i]! * gain;
    signal[signal.length - 1 - i] = signal[signal.length - 1 - i]! * gain;
  }
  return signal;
}

/** Uniform noise within ±`amplitude` (never past it, unlike `noise`), for format and codec tests. */
export function uniformNoise(frames: number, amplitude: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: frames }, () => amplitude * (2 * random() - 1));
}

/** Values that every bit depth represents exactly, so a decoder must return them bit for bit. */
export function exactSamples(bits: number, length: number, seed: number): Float32Array {
  const step = 2 ** -(Math.min(bits, 24) - 1);
  return uniformNoise(length, 0.9, seed).map((v) => Math.round(v / step) * step || 0); // no -0: it decodes as 0
}

/**
 * A second per channel: 1 kHz sines, each channel 2 dB quieter and one radian later than the one
 * before, so a swapped or dropped channel shows; a 5.1 file's LFE (the fourth) is 60 Hz.
 */
export function channelTones(sampleRate: number, channelCount: number, seconds = 1): Float32Array[] {
  const frames = Math.round(sampleRate * seconds);
  return Array.from({ length: channelCount }, (_, c) =>
    sine(sampleRate, channelCount === 6 && c === 3 ? 60 : 1000, -20 - 2 * c, frames, c),
  );
}

/** Quiet noise with one loud click at `at`: where the click comes out shows any shift. */
export function clickTrack(frames: number, at: number, seed = 7): Float32Array {
  const track = uniformNoise(frames, 0.02, seed);
  if (at < frames) track[at] = 0.9;
  return track;
}

export function indexOfPeak(samples: Float32Array): number {
  let best = 0;
  for (let i = 1; i < samples.length; i++) if (Math.abs(samples[i]!) > Math.abs(samples[best]!)) best = i;
  return best;
}

export function maxAbsDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

/** The lag (within ±maxLag) at which `b` best matches `a`; 0 means aligned. */
export function bestLag(a: Float32Array, b: Float32Array, maxLag: number): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let score = 0;
    for (let i = Math.max(0, -lag); i < a.length && i + lag < b.length; i++) score += a[i]! * b[i + lag]!;
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  return best;
}

export function rms(samples: Float32Array, from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += samples[i]! ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
}
