/**
 * A compact description of how a sound sounds, for finding similar sounds: DESCRIPTOR_LENGTH
 * numbers measured on the mono mix in frames of FRAME samples every HOP samples.
 *
 * Per frame that is not silent: spectral centroid, spread, flatness and 85 % roll-off, the
 * zero-crossing rate, and 12 MFCCs (40 mel bands, 30 Hz to 16 kHz, DCT-II without the 0th
 * coefficient, which only says how loud). Each becomes its mean and standard deviation over the
 * frames. Then four numbers about the whole sound: onsets per second (peaks of spectral flux),
 * attack time (onset to peak), duration and integrated loudness. Frequencies and times are kept
 * as logarithms, as they are heard. The catalog normalises each number over all sounds before
 * comparing (catalog/index/similar.ts), so the units here only need to be consistent.
 */
import type { Loudness, Timing } from '../types.ts';

const FRAME = 2048;
const HOP = 1024;
const BINS = FRAME / 2 + 1;
const MEL_BANDS = 40;
const MEL_LOW_HZ = 30;
const MEL_HIGH_HZ = 16_000;
const MFCCS = 12;
const ROLL_OFF = 0.85;
/** Frames quieter than this (RMS, about -70 dBFS) are silence: they describe nothing. */
const SILENT_RMS = 3e-4;
const FRAME_FEATURES = 5 + MFCCS;
/** Loudness given to digital silence, which has none. */
const SILENCE_LUFS = -70;

/** The position of each number in a descriptor vector, for readers and for weighting. */
export const DESCRIPTOR_NAMES: readonly string[] = [
  ...['centroid', 'spread', 'flatness', 'rolloff', 'zcr', ...Array.from({ length: MFCCS }, (_, i) => `mfcc${i + 1}`)]
    .flatMap((name) => [`${name}_mean`, `${name}_std`]),
  'onset_rate', 'attack', 'duration', 'loudness',
];
export const DESCRIPTOR_LENGTH = DESCRIPTOR_NAMES.length;

export class DescriptorMeter {
  private readonly frame = new Float64Array(FRAME);
  private filled = 0;
  private readonly window = hann(FRAME);
  private readonly fft = new Fft(FRAME);
  private readonly re = new Float64Array(FRAME);
  private readonly im = new Float64Array(FRAME);
  private readonly power = new Float64Array(BINS);
  private readonly magnitude = new Float64Array(BINS);
  private readonly previousMagnitude = new Float64Array(BINS);
  private readonly mel: MelBank;
  private readonly bands = new Float64Array(MEL_BANDS);
  private readonly sums = new Float64Array(FRAME_FEATURES);
  private readonly squares = new Float64Array(FRAME_FEATURES);
  private readonly features = new Float64Array(FRAME_FEATURES);
  private activeFrames = 0;
  /** Spectral flux of each frame after the first (silent frames count as 0). */
  private readonly flux: number[] = [];
  private framesSeen = 0;

  constructor(private readonly sampleRate: number) {
    this.mel = new MelBank(sampleRate);
  }

  /** Feeds frames of every channel; they are mixed to mono. */
  push(channels: readonly Float32Array[], frames: number): void {
    const scale = 1 / channels.length;
    for (let i = 0; i < frames; i++) {
      let sum = 0;
      for (const channel of channels) sum += channel[i]!;
      this.frame[this.filled++] = sum * scale;
      if (this.filled === FRAME) {
        this.analyzeFrame();
        this.frame.copyWithin(0, HOP);
        this.filled = FRAME - HOP;
      }
    }
  }

  finish(sound: { duration: number; timing: Timing; loudness: Loudness }): number[] {
    // A sound shorter than one frame is described by its one zero-padded frame.
    if (this.framesSeen === 0 && this.filled > 0) {
      this.frame.fill(0, this.filled);
      this.analyzeFrame();
    }
    const vector: number[] = [];
    for (let f = 0; f < FRAME_FEATURES; f++) {
      const n = this.activeFrames;
      const mean = n === 0 ? 0 : this.sums[f]! / n;
      const variance = n === 0 ? 0 : Math.max(0, this.squares[f]! / n - mean * mean);
      vector.push(mean, Math.sqrt(variance));
    }
    const activeSeconds = Math.max(this.activeFrames * HOP / this.sampleRate, FRAME / this.sampleRate);
    const { onset_ms: onset, peak_ms: peak } = sound.timing;
    vector.push(
      this.onsetCount() / activeSeconds,
      Math.log10(1 + (onset !== null && peak !== null ? Math.max(0, peak - onset) : 0)),
      Math.log10(0.01 + sound.duration),
      sound.loudness.integrated_lufs ?? SILENCE_LUFS,
    );
    return vector.map((value) => Number(value.toPrecision(5)));
  }

  private analyzeFrame(): void {
    this.framesSeen++;
    const { frame, window, re, im, power, magnitude, previousMagnitude } = this;
    let energy = 0;
    let crossings = 0;
    for (let i = 0; i < FRAME; i++) {
      const x = frame[i]!;
      energy += x * x;
      if (i > 0 && (x >= 0) !== (frame[i - 1]! >= 0)) crossings++;
      re[i] = x * window[i]!;
      im[i] = 0;
    }
    this.fft.transform(re, im);
    let total = 0;
    let flux = 0;
    for (let k = 0; k < BINS; k++) {
      power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
      total += power[k]!;
      magnitude[k] = Math.sqrt(power[k]!);
      const rise = magnitude[k]! - previousMagnitude[k]!;
      if (rise > 0) flux += rise;
    }
    previousMagnitude.set(magnitude);
    const silent = Math.sqrt(energy / FRAME) < SILENT_RMS;
    if (this.framesSeen > 1) this.flux.push(silent ? 0 : flux);
    if (silent || total === 0) return;

    const hzPerBin = this.sampleRate / FRAME;
    let centroid = 0;
    for (let k = 0; k < BINS; k++) centroid += k * hzPerBin * power[k]!;
    centroid /= total;
    let spread = 0;
    let logSum = 0;
    let rollOff = 0;
    let cumulative = 0;
    for (let k = 0; k < BINS; k++) {
      const offset = k * hzPerBin - centroid;
      spread += offset * offset * power[k]!;
      logSum += Math.log(power[k]! + 1e-12);
      if (cumulative < ROLL_OFF * total) {
        cumulative += power[k]!;
        rollOff = k * hzPerBin;
      }
    }
    const flatness = Math.exp(logSum / BINS) / (total / BINS + 1e-12);
    const features = this.features;
    features[0] = Math.log2(1 + centroid);
    features[1] = Math.log2(1 + Math.sqrt(spread / total));
    features[2] = Math.log10(flatness + 1e-6);
    features[3] = Math.log2(1 + rollOff);
    features[4] = Math.log2(1 + (crossings * this.sampleRate) / FRAME);
    this.mel.apply(power, this.bands);
    for (let b = 0; b < MEL_BANDS; b++) this.bands[b] = Math.log10(this.bands[b]! + 1e-10);
    for (let c = 1; c <= MFCCS; c++) {
      let sum = 0;
      for (let b = 0; b < MEL_BANDS; b++) sum += this.bands[b]! * Math.cos((Math.PI * c * (b + 0.5)) / MEL_BANDS);
      features[4 + c] = sum * Math.sqrt(2 / MEL_BANDS);
    }
    for (let f = 0; f < FRAME_FEATURES; f++) {
      this.sums[f] = this.sums[f]! + features[f]!;
      this.squares[f] = this.squares[f]! + features[f]! * features[f]!;
    }
    this.activeFrames++;
  }

  /** Peaks of the spectral flux above its mean plus one standard deviation, at most one per 50 ms. */
  private onsetCount(): number {
    const flux = this.flux;
    if (flux.length < 3) return 0;
    let sum = 0;
    let squares = 0;
    for (const value of flux) {
      sum += value;
      squares += value * value;
    }
    const mean = sum / flux.length;
    const threshold = mean + Math.sqrt(Math.max(0, squares / flux.length - mean * mean));
    const gap = Math.max(1, Math.round((0.05 * this.sampleRate) / HOP));
    let count = 0;
    let last = -gap;
    for (let i = 1; i < flux.length - 1; i++) {
      const value = flux[i]!;
      if (value > threshold && value > 0 && value >= flux[i - 1]! && value > flux[i + 1]! && i - last >= gap) {
        count++;
        last = i;
      }
    }
    return count;
  }
}

function hann(length: number): Float64Array {
  const window = new Float64Array(length);
  for (let i = 0; i < length; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / length);
  return window;
}

/** Triangular mel filters over the power spectrum, each bin weighted into at most two bands. */
class MelBank {
  private readonly lowBand: Int32Array;
  private readonly lowWeight: Float64Array;

  constructor(sampleRate: number) {
    const toMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
    const high = Math.min(MEL_HIGH_HZ, sampleRate / 2);
    const lowMel = toMel(MEL_LOW_HZ);
    const step = (toMel(high) - lowMel) / (MEL_BANDS + 1);
    this.lowBand = new Int32Array(BINS);
    this.lowWeight = new Float64Array(BINS);
    for (let k = 0; k < BINS; k++) {
      // Position on the mel scale in units of bands: band b peaks at b + 1.
      const position = (toMel((k * sampleRate) / FRAME) - lowMel) / step;
      const below = Math.floor(position);
      this.lowBand[k] = below - 1;
      this.lowWeight[k] = 1 - (position - below);
    }
  }

  /** Band energies: bin k gives `lowWeight` to the band peaking below it and the rest to the next. */
  apply(power: Float64Array, bands: Float64Array): void {
    bands.fill(0);
    for (let k = 0; k < BINS; k++) {
      const band = this.lowBand[k]!;
      if (band >= 0 && band < MEL_BANDS) bands[band] = bands[band]! + power[k]! * this.lowWeight[k]!;
      if (band + 1 >= 0 && band + 1 < MEL_BANDS) bands[band + 1] = bands[band + 1]! + power[k]! * (1 - this.lowWeight[k]!);
    }
  }
}

/** An in-place radix-2 complex FFT of one fixed size. */
class Fft {
  private readonly reversed: Uint32Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;

  constructor(private readonly size: number) {
    const bits = Math.log2(size);
    this.reversed = new Uint32Array(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.reversed[i] = r;
    }
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    for (let i = 0; i < size / 2; i++) {
      this.cos[i] = Math.cos((2 * Math.PI * i) / size);
      this.sin[i] = -Math.sin((2 * Math.PI * i) / size);
    }
  }

  transform(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      const j = this.reversed[i]!;
      if (j > i) {
        [re[i], re[j]] = [re[j]!, re[i]!];
        [im[i], im[j]] = [im[j]!, im[i]!];
      }
    }
    for (let length = 2; length <= n; length *= 2) {
      const half = length / 2;
      const stride = n / length;
      for (let start = 0; start < n; start += length) {
        for (let k = 0; k < half; k++) {
          const wr = this.cos[k * stride]!;
          const wi = this.sin[k * stride]!;
          const a = start + k;
          const b = a + half;
          const xr = re[b]! * wr - im[b]! * wi;
          const xi = re[b]! * wi + im[b]! * wr;
          re[b] = re[a]! - xr;
          im[b] = im[a]! - xi;
          re[a] = re[a]! + xr;
          im[a] = im[a]! + xi;
        }
      }
    }
  }
}
