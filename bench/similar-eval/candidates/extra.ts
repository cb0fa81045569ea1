/**
 * Candidate measures for similar sounds, computed from a whole mono signal (explore.ts tries them;
 * none is in the analyzer). Each group is a list of numbers. Frames of 512 samples every 256 (about
 * 6 ms at 44.1 kHz, four times finer than the analyzer's) resolve a drum's first milliseconds;
 * times are counted from the peak (the first frame within 3 dB of the loudest, as PeakTracker).
 * - fine_env, fine_attack, fine_band_env: level 1-64 frames after the peak (and per band), rise;
 * - slope_early, slope_late, slope_whole: decay in dB/s fitted over 0-60 ms, 60-600 ms, 0-600 ms
 *   after the peak, whole and per band, over the frames that exist (a cut sound keeps its slope);
 * - ended: the level of the last frame and the length;
 * - flat_time, flat_high: spectral flatness (200 Hz-16 kHz, 1-10 kHz) at times after the peak;
 * - low_pitch: strongest peak between 30 and 600 Hz at 50 ms, its glide to 20, 100, 200, 300 ms,
 *   and how much of that band it holds;
 * - bursts: how many bursts (a clap's) in 1.5 ms RMS around the peak, and how rough it is;
 * - transient_mfcc: MFCCs of 1024 samples from the onset (30 dB below the peak);
 * - body_minus_transient: the MFCCs of 100-300 ms after the peak less the transient's (a
 *   recording chain's colour adds the same to both, so it cancels);
 * - attack_mfcc_std: how 8 MFCCs move over the first 60 ms;
 * - early_mfcc, early_flat: MFCCs and flatness of the first 150 ms.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Fft, hann } from '../../../src/audio/analyze/fft.ts';
import { cached, contentKey, type Recording, readWav } from '../data.ts';

const log10 = (x: number) => Math.log10(x + 1e-20);

function stft(x: Float32Array, size: number, hop: number, start = 0, count = Infinity) {
  const fft = new Fft(size);
  const w = hann(size);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const frames: Float64Array[] = [];
  for (let s = start, n = 0; s < x.length && n < count; s += hop, n++) {
    for (let i = 0; i < size; i++) {
      re[i] = (x[s + i] ?? 0) * w[i]!;
      im[i] = 0;
    }
    fft.transform(re, im);
    const p = new Float64Array(size / 2 + 1);
    for (let k = 0; k <= size / 2; k++) p[k] = re[k]! ** 2 + im[k]! ** 2;
    frames.push(p);
  }
  return frames;
}

/** First frame within 3 dB of its maximum, as PeakTracker does. */
function peakOf(energy: number[]): number {
  let level = 0;
  let peak = 0;
  energy.forEach((e, i) => {
    if (e > 2 * level) {
      level = e;
      peak = i;
    } else if (e > level) level = e;
  });
  return peak;
}

const BAND_HZ = [0, 200, 500, 1200, 3000, 7000, 1e9];
const OFFSETS = [1, 2, 4, 8, 16, 32, 64];

function melBank(size: number, sr: number, bands = 40, low = 30, high = 16000) {
  const toMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
  const lm = toMel(low);
  const step = (toMel(Math.min(high, sr / 2)) - lm) / (bands + 1);
  const bins = size / 2 + 1;
  return (p: Float64Array) => {
    const out = new Float64Array(bands);
    for (let k = 0; k < bins; k++) {
      const pos = (toMel((k * sr) / size) - lm) / step;
      const below = Math.floor(pos);
      const wl = 1 - (pos - below);
      if (below - 1 >= 0 && below - 1 < bands) out[below - 1] = out[below - 1]! + p[k]! * wl;
      if (below >= 0 && below < bands) out[below] = out[below]! + p[k]! * (1 - wl);
    }
    return out;
  };
}
function mfcc(bands: Float64Array, n = 12) {
  const B = bands.length;
  const out: number[] = [];
  for (let c = 1; c <= n; c++) {
    let s = 0;
    for (let b = 0; b < B; b++) s += Math.log10(bands[b]! + 1e-10) * Math.cos((Math.PI * c * (b + 0.5)) / B);
    out.push(s * Math.sqrt(2 / B));
  }
  return out;
}
function flatness(p: Float64Array, from: number, to: number) {
  let ls = 0;
  let s = 0;
  for (let k = from; k < to; k++) {
    ls += Math.log(p[k]! + 1e-12);
    s += p[k]!;
  }
  const n = to - from;
  return Math.log10(Math.exp(ls / n) / (s / n + 1e-12) + 1e-6);
}

function group(name: string, values: number[], into: Record<string, number[]>) {
  into[name] = values.map((v) => (Number.isFinite(v) ? Number(v.toPrecision(5)) : 0));
}

export function extraMeasures(x: Float32Array, sr: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  // Fine frames: 512 samples every 256.
  const F = 512;
  const H = 256;
  const frames = stft(x, F, H);
  if (frames.length === 0) frames.push(new Float64Array(F / 2 + 1));
  const hzBin = sr / F;
  const bandsOf = (p: Float64Array) =>
    BAND_HZ.slice(0, -1).map((lo, b) => {
      let s = 0;
      for (let k = Math.ceil(lo / hzBin); k < Math.min(p.length, BAND_HZ[b + 1]! / hzBin); k++) s += p[k]!;
      return s;
    });
  const E = frames.map((p) => p.reduce((a, b) => a + b, 0));
  const peak = peakOf(E);
  const pe = E[peak]! + 1e-20;
  const floor = pe * 1e-6;
  const at = (i: number) => E[i] ?? 0;
  // A: fine envelope after the peak, and before it.
  group(
    'fine_env',
    OFFSETS.map((o) => log10((at(peak + o) + floor) / pe)),
    out,
  );
  let onset = peak;
  while (onset > 0 && E[onset - 1]! > pe * 1e-3) onset--;
  group(
    'fine_attack',
    [
      Math.log10(0.002 + ((peak - onset) * H) / sr),
      log10((at(peak - 1) + floor) / pe),
      log10((at(peak - 2) + floor) / pe),
    ],
    out,
  );
  // B: per band fine envelope.
  const bp = bandsOf(frames[peak]!);
  group(
    'fine_band_env',
    bp.flatMap((b0, b) =>
      OFFSETS.slice(0, 5).map((o) => {
        const f = frames[peak + o];
        const v = f ? bandsOf(f)[b]! : 0;
        return log10((v + floor) / (b0 + floor));
      }),
    ),
    out,
  );
  // G: decay slopes (dB per second by least squares over the frames that exist), early and late, whole and per band.
  const series = (b: number) => frames.map((f, i) => (b < 0 ? E[i]! : bandsOf(f)[b]!));
  const slopeOf = (v: number[], from: number, to: number) => {
    const top = v[peak]! + 1e-20;
    const pts: Array<[number, number]> = [];
    for (let t = peak + from; t < Math.min(v.length, peak + to); t++) {
      if (v[t]! < top * 1e-5) break;
      pts.push([((t - peak) * H) / sr, 10 * Math.log10(v[t]! + 1e-20)]);
    }
    if (pts.length < 3) return pts.length === 0 && peak + from < v.length ? 3.5 : 2;
    const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
    const my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    let sxy = 0;
    let sxx = 0;
    for (const [x0, y0] of pts) {
      sxy += (x0 - mx) * (y0 - my);
      sxx += (x0 - mx) ** 2;
    }
    return Math.log10(10 + Math.max(0, -sxy / sxx));
  };
  const EARLY = Math.round((0.06 * sr) / H);
  const LATE = Math.round((0.6 * sr) / H);
  const allSeries = [-1, 0, 1, 2, 3, 4, 5].map(series);
  group(
    'slope_early',
    allSeries.map((v) => slopeOf(v, 0, EARLY)),
    out,
  );
  group(
    'slope_late',
    allSeries.map((v) => slopeOf(v, EARLY, LATE)),
    out,
  );
  group(
    'slope_whole',
    allSeries.map((v) => slopeOf(v, 0, LATE)),
    out,
  );
  group('ended', [log10((E[E.length - 1]! + floor) / pe), Math.log10(0.01 + (frames.length * H) / sr)], out);
  // D: flatness over time, whole (200 Hz-16 kHz) and high (1-10 kHz).
  const lo = Math.round(200 / hzBin);
  const hi = Math.min(F / 2, Math.round(16000 / hzBin));
  const flatAt = (o: number, a: number, b: number) => {
    const f = frames[peak + o];
    return f && E[peak + o]! > pe * 1e-4 ? flatness(f, a, b) : 0;
  };
  const OFF_FLAT = [0, 2, 4, 8, 16, 32];
  group(
    'flat_time',
    OFF_FLAT.map((o) => flatAt(o, lo, hi)),
    out,
  );
  group(
    'flat_high',
    OFF_FLAT.map((o) => flatAt(o, Math.round(1000 / hzBin), Math.round(10000 / hzBin))),
    out,
  );
  // C: low pitch trajectory: 2048-sample windows zero-padded to 8192 at times after the peak.
  const Z = 8192;
  const W = 2048;
  const fft = new Fft(Z);
  const w = hann(W);
  const peakSample = peak * H + F / 2;
  const hz = sr / Z;
  const lowAt = (ms: number) => {
    const re = new Float64Array(Z);
    const im = new Float64Array(Z);
    const s0 = Math.round(peakSample + (ms / 1000) * sr - W / 2);
    for (let i = 0; i < W; i++) re[i] = (x[s0 + i] ?? 0) * w[i]!;
    fft.transform(re, im);
    let best = -1;
    let bestP = 0;
    let total = 0;
    const a = Math.round(30 / hz);
    const b = Math.round(600 / hz);
    const p = (k: number) => re[k]! ** 2 + im[k]! ** 2;
    for (let k = a; k <= b; k++) {
      total += p(k);
      if (p(k) > bestP) {
        bestP = p(k);
        best = k;
      }
    }
    // Parabolic interpolation on log power.
    const l = Math.log(p(best - 1) + 1e-20);
    const c = Math.log(p(best) + 1e-20);
    const r = Math.log(p(best + 1) + 1e-20);
    const delta = (l - r) / (2 * (l - 2 * c + r) || 1);
    // Salience: the share of the 30-600 Hz power within +-3 bins (about 16 Hz) of the peak.
    let near = 0;
    for (let k = best - 3; k <= best + 3; k++) near += p(k);
    return { f: Math.log2((best + delta) * hz), salience: near / (total + 1e-20), total };
  };
  const TIMES = [20, 50, 100, 200, 300];
  const lows = TIMES.map(lowAt);
  const ref = lows[1]!;
  const sounding = (l: { total: number }) => l.total > ref.total * 1e-4 && l.total > 0;
  group(
    'low_pitch',
    [
      ref.total > 0 ? ref.f : 5,
      ...lows.filter((_, i) => i !== 1).map((l) => (sounding(l) && ref.total > 0 ? l.f - ref.f : 0)),
      ...lows.slice(0, 4).map((l) => (l.total > 0 ? l.salience : 0)),
    ],
    out,
  );
  // E: bursts (claps): 64-sample RMS around the peak.
  const R = 64;
  const env: number[] = [];
  const c0 = Math.max(0, peakSample - Math.round(0.03 * sr));
  const c1 = Math.min(x.length, peakSample + Math.round(0.06 * sr));
  for (let s = c0; s + R <= c1; s += R) {
    let e = 0;
    for (let i = 0; i < R; i++) e += x[s + i]! ** 2;
    env.push(e);
  }
  const emax = Math.max(1e-20, ...env);
  let bursts = 0;
  let last = -100;
  let rough = 0;
  for (let i = 1; i < env.length - 1; i++) {
    if (env[i]! > env[i - 1]! && env[i]! >= env[i + 1]! && env[i]! > emax * 0.1 && i - last >= 3) {
      // a local max that falls at least 6 dB before the next
      let j = i + 1;
      let min = env[i]!;
      while (j < env.length && env[j]! <= env[i]!) {
        min = Math.min(min, env[j]!);
        j++;
        if (env[j] !== undefined && env[j]! > env[i]!) break;
      }
      if (min < env[i]! * 0.25 || j >= env.length) {
        bursts++;
        last = i;
      }
    }
    rough += Math.abs(log10(env[i]! + emax * 1e-6) - log10(env[i - 1]! + emax * 1e-6));
  }
  group('bursts', [Math.log2(1 + bursts), rough / Math.max(1, env.length)], out);
  // F: transient MFCCs (1024 samples from the onset) and body MFCCs (100-300 ms after the peak).
  const mel1024 = melBank(1024, sr);
  const tr = stft(x, 1024, 512, Math.max(0, onset * H), 1)[0] ?? new Float64Array(513);
  const trM = mfcc(mel1024(tr));
  const body = stft(x, 1024, 512, peakSample + Math.round(0.1 * sr), 9);
  const bodySum = new Float64Array(40);
  for (const p of body) {
    const m = mel1024(p);
    for (let b = 0; b < 40; b++) bodySum[b] = bodySum[b]! + m[b]!;
  }
  const bodyM = mfcc(bodySum);
  const bodySounding = bodySum.reduce((a, b) => a + b, 0) > 1e-8 * 1024;
  group('transient_mfcc', trM, out);
  const early = stft(x, 1024, 512, Math.max(0, onset * H), Math.round((0.15 * sr) / 512));
  const earlySum = new Float64Array(40);
  for (const p of early) {
    const m = mel1024(p);
    for (let b = 0; b < 40; b++) earlySum[b] = earlySum[b]! + m[b]!;
  }
  group('early_mfcc', mfcc(earlySum), out);
  const earlyP = new Float64Array(513);
  for (const p of early) for (let k = 0; k < 513; k++) earlyP[k] = earlyP[k]! + p[k]!;
  group('early_flat', [flatness(earlyP, 5, 372), flatness(earlyP, 23, 232)], out);
  group('body_minus_transient', bodySounding ? bodyM.map((v, i) => v - trM[i]!) : trM.map(() => 0), out);
  // MFCC deviation over fine frames in the first 60 ms after the onset (how the timbre moves in the attack).
  const mel512 = melBank(F, sr, 24, 60);
  const seq = frames.slice(onset, onset + 11).filter((_, i, a) => a[i]!.reduce((s, v) => s + v, 0) > pe * 1e-4);
  const ms = seq.map((p) => mfcc(mel512(p), 8));
  group(
    'attack_mfcc_std',
    Array.from({ length: 8 }, (_, c) => {
      if (ms.length < 2) return 0;
      const m = ms.reduce((s, v) => s + v[c]!, 0) / ms.length;
      return Math.sqrt(ms.reduce((s, v) => s + (v[c]! - m) ** 2, 0) / ms.length);
    }),
    out,
  );
  return out;
}

/**
 * The candidates of every recording in `folder`, from the cache where this file's code measured
 * the same recording (as data.ts's measureAll keeps the analyzer's measures).
 */
export function extraMeasuresAll(folder: string, recordings: readonly Recording[]): Array<Record<string, number[]>> {
  const version = createHash('sha1')
    .update(readFileSync(new URL(import.meta.url)))
    .digest('hex')
    .slice(0, 10);
  const { known, save } = cached(`extra-${version}.json`);
  let added = 0;
  const all = recordings.map((recording) => {
    const file = path.join(folder, recording.file);
    const key = contentKey(file);
    if (!known[key]) {
      const { sampleRate, samples } = readWav(file);
      // The cache holds numbers per key; here, groups of them.
      known[key] = extraMeasures(samples, sampleRate) as unknown as number[];
      added++;
    }
    return known[key] as unknown as Record<string, number[]>;
  });
  if (added) save();
  return all;
}
