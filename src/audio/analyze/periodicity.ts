import { Fft, hann } from './fft.ts';

/** Fine frames, for where the peak is: 512 samples every 256. */
const FINE = 512;
const FINE_HOP = 256;
/** What is kept from the peak on: the longest stretch measured. */
const KEPT_SECONDS = 0.3;
/** Stretches after the peak, in ms, each measured on its own. */
const STRETCHES: ReadonlyArray<readonly [number, number]> = [
  [0, 100],
  [100, 300],
];
/** Lags searched: 1 to 25 ms, a period of 40 Hz to 1 kHz. */
const SHORTEST_LAG_S = 0.001;
const LONGEST_LAG_S = 0.025;
/** A stretch shorter than this many samples (a sound that ended) is read as silence. */
const SHORTEST_STRETCH = 64;

/** The numbers PeriodicityMeter.finish gives, in order. */
export const PERIODICITY_NAMES: readonly string[] = [
  'periodicity_0_100ms',
  'period_0_100ms',
  'periodicity_100_300ms',
  'period_100_300ms',
  'periodicity_highs_0_100ms',
  'periodicity_highs_100_300ms',
];

/**
 * How periodic a sound is after its peak, whatever its level and colour: a tom's or a rim's ring
 * against a snare's or a cymbal's noise. For 0 to 100 and 100 to 300 ms after the peak: the
 * highest autocorrelation at lags of 1 to 25 ms over its value at lag 0 (corrected for the
 * shorter overlap), and that lag as log10 seconds; then the same height on the signal
 * differenced twice (its highs). The peak is where the level of fine frames first came within
 * 3 dB of its maximum, as PeakTracker has it for the long frames; it moves while a sound plays,
 * so the samples from the current one on are kept (KEPT_SECONDS at most).
 */
export class PeriodicityMeter {
  private readonly window = hann(FINE);
  /** The last FINE samples: sample n at n % FINE. */
  private readonly recent = new Float64Array(FINE);
  private seen = 0;
  private level = 0;
  /** Samples from the peak's fine frame on. */
  private readonly kept: Float64Array;
  private keptCount = 0;

  constructor(private readonly sampleRate: number) {
    this.kept = new Float64Array(Math.ceil(KEPT_SECONDS * sampleRate));
  }

  /** Takes the next sample of the mono mix. */
  add(sample: number): void {
    this.recent[this.seen & (FINE - 1)] = sample;
    if (this.keptCount < this.kept.length) this.kept[this.keptCount++] = sample;
    this.seen++;
    if (this.seen >= FINE && (this.seen - FINE) % FINE_HOP === 0) this.fineFrame(this.seen - FINE);
  }

  /** PERIODICITY_NAMES in order. */
  finish(): number[] {
    // The frames that run past the end, zero-padded: those from the one after the last whole one.
    const done = this.seen >= FINE ? (Math.floor((this.seen - FINE) / FINE_HOP) + 1) * FINE_HOP : 0;
    for (let start = done; start < this.seen; start += FINE_HOP) this.fineFrame(start);
    const stretch = ([fromMs, toMs]: readonly [number, number], differences: number) => {
      const from = Math.min(this.keptCount, Math.floor((fromMs * this.sampleRate) / 1000));
      const to = Math.min(this.keptCount, Math.floor((toMs * this.sampleRate) / 1000));
      let samples = this.kept.slice(from, to);
      for (let d = 0; d < differences; d++) {
        const before = samples;
        samples = before.map((value, i) => (i === 0 ? 0 : value - before[i - 1]!));
      }
      return periodicity(
        samples.length > SHORTEST_STRETCH ? samples : new Float64Array(SHORTEST_STRETCH),
        this.sampleRate,
      );
    };
    const [early, late] = STRETCHES.map((range) => stretch(range, 0));
    const highs = STRETCHES.map((range) => stretch(range, 2)[0]!);
    return [...early!, ...late!, ...highs];
  }

  /** The fine frame starting at sample `start` (zero past what was seen); the peak moves to it if it is 3 dB louder. */
  private fineFrame(start: number): void {
    let energy = 0;
    const end = Math.min(FINE, this.seen - start);
    for (let i = 0; i < end; i++) {
      const value = this.recent[(start + i) & (FINE - 1)]! * this.window[i]!;
      energy += value * value;
    }
    if (energy > 2 * this.level) {
      this.level = energy;
      // Kept again from this frame on: its samples are still among the recent ones.
      this.keptCount = Math.min(this.kept.length, this.seen - start);
      for (let i = 0; i < this.keptCount; i++) this.kept[i] = this.recent[(start + i) & (FINE - 1)]!;
    } else if (energy > this.level) this.level = energy;
  }
}

/**
 * The highest autocorrelation of a Hann-windowed stretch at lags of 1 to 25 ms, over its value at
 * lag 0 and corrected for the overlap, at most 1; and that lag in log10 seconds.
 */
function periodicity(samples: Float64Array, sampleRate: number): [number, number] {
  const shortest = Math.floor(sampleRate * SHORTEST_LAG_S);
  const longest = Math.floor(sampleRate * LONGEST_LAG_S);
  // Zero-padded past the longest lag, so that the circular correlation is the plain one there.
  const size = 2 ** Math.ceil(Math.log2(samples.length + longest + 1));
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const window = hann(samples.length);
  for (let i = 0; i < samples.length; i++) re[i] = samples[i]! * window[i]!;
  const fft = new Fft(size);
  fft.transform(re, im);
  for (let k = 0; k < size; k++) {
    re[k] = re[k]! ** 2 + im[k]! ** 2;
    im[k] = 0;
  }
  // The power spectrum is real and even: its transform is the autocorrelation (times size).
  fft.transform(re, im);
  const atZero = re[0]! || 1e-20;
  let best = 0;
  let lag = shortest;
  // Past the stretch's length nothing overlaps.
  for (let l = shortest; l <= Math.min(longest, samples.length - 1); l++) {
    const value = re[l]! / atZero / (1 - l / samples.length);
    if (value > best) {
      best = value;
      lag = l;
    }
  }
  return [Math.min(1, best), Math.log10(lag / sampleRate)];
}
