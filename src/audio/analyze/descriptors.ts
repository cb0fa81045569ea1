/**
 * A compact description of how a sound sounds, for finding similar sounds: DESCRIPTOR_LENGTH
 * numbers from measures on the mono mix in frames of FRAME samples every HOP samples. Frames
 * quieter than SILENT_RMS describe nothing of the timbre.
 *
 * The measures (MEASURE_NAMES), in groups each given the same say in a distance, whatever its size:
 * - spectrum: centroid, spread, flatness, 85 % roll-off and zero-crossing rate, mean and
 *   deviation over the frames;
 * - timbre: 12 MFCCs (40 mel bands, 30 Hz to 16 kHz, DCT-II without the 0th coefficient, which
 *   only says how loud) as means, and the deviations of the first six;
 * - the attack's timbre: the MFCCs of the peak's frame and the two after it, where a drum hit
 *   says what it is (a kick's body and a snare's rattle differ most there);
 * - where the energy lies: the share of six groups of the mel bands (up to about 400 Hz, 1 kHz,
 *   2.3 kHz, 4.4 kHz, 8 kHz, and above, at 44.1 kHz), over the sound and in the attack;
 * - how each of those bands rings: from its peak until 20 dB below it, and its level 1, 2, 4, 8
 *   and 16 frames after the whole sound's peak against its level there (the decay per band,
 *   aligned on the onset);
 * - the envelope: decay to 20 and to 40 dB below the peak, the energy's centre in time, the rise
 *   from the first sounding frame to the peak, and the share of frames that sound;
 * - the attack's shape over the mel bands: centroid and flatness;
 * - how periodic it is after the peak, and at what period (periodicity.ts).
 * A peak is where a level first came within 3 dB of its maximum (PeakTracker).
 *
 * The descriptor is the measures projected on axes learned from labelled recordings
 * (similar-projection.ts, made by scripts/learn-similar-projection.ts: linear discriminant
 * analysis over several drum kits and soundfonts), followed by the measures themselves.
 * docs/similar-sounds.md says how it is evaluated on recordings it was not learned on. Times and
 * frequencies are kept as logarithms, as they are heard. The catalog normalises each number over
 * all sounds before comparing (the search index's SimilarityIndex), so the units here only need to be
 * consistent.
 */

import { Fft, hann } from './fft.ts';
import { PeriodicityMeter, PERIODICITY_NAMES } from './periodicity.ts';
import { MEASURE_COUNT, PROJECTION } from './similar-projection.ts';

const FRAME = 2048;
const HOP = 1024;
const BINS = FRAME / 2 + 1;
const MEL_BANDS = 40;
const MEL_LOW_HZ = 30;
const MEL_HIGH_HZ = 16_000;
const MFCCS = 12;
/** MFCC deviations kept: the first ones, which say how the broad shape of the spectrum moves. */
const MFCC_DEVIATIONS = 6;
const ROLL_OFF = 0.85;
/** Frames quieter than this (RMS, about -70 dBFS) are silence: they describe nothing. */
const SILENT_RMS = 3e-4;
const SPECTRAL_FEATURES = 5;
const FRAME_FEATURES = SPECTRAL_FEATURES + MFCCS;
/** Mel bands [from, to) of each of the six coarse bands. */
const COARSE_BANDS: ReadonlyArray<readonly [number, number]> = [
  [0, 5],
  [5, 11],
  [11, 18],
  [18, 25],
  [25, 32],
  [32, 40],
];
/** Frames of the attack: the peak's and the ones after it. */
const ATTACK_FRAMES = 3;
/** Frames after the peak at which each coarse band's level is read against its level at the peak. */
const AFTER_PEAK = [1, 2, 4, 8, 16];
/** 60 dB: a band fallen further than this (or ended) reads as this far down. */
const FLOOR = 1e-6;
/** Energy ratios of 20 and 40 dB. */
const DOWN_20_DB = 1e-2;
const DOWN_40_DB = 1e-4;

const GROUPS: ReadonlyArray<{ weight: number; names: string[] }> = [
  {
    weight: 1,
    names: ['centroid', 'spread', 'flatness', 'rolloff', 'zcr'].flatMap((name) => [`${name}_mean`, `${name}_std`]),
  },
  { weight: 1, names: Array.from({ length: MFCCS }, (_, i) => `mfcc${i + 1}_mean`) },
  { weight: 0.7, names: Array.from({ length: MFCC_DEVIATIONS }, (_, i) => `mfcc${i + 1}_std`) },
  { weight: 1, names: Array.from({ length: MFCCS }, (_, i) => `attack_mfcc${i + 1}`) },
  { weight: 1, names: COARSE_BANDS.map((_, i) => `band${i + 1}_share`) },
  { weight: 1, names: COARSE_BANDS.map((_, i) => `band${i + 1}_decay`) },
  { weight: 1, names: ['decay_20db', 'decay_40db', 'temporal_centroid', 'rise', 'sounding_share'] },
  { weight: 1, names: COARSE_BANDS.map((_, i) => `attack_band${i + 1}_share`) },
  { weight: 1, names: COARSE_BANDS.flatMap((_, i) => AFTER_PEAK.map((after) => `band${i + 1}_after${after}`)) },
  { weight: 1, names: ['attack_centroid', 'attack_flatness'] },
  { weight: 1, names: [...PERIODICITY_NAMES] },
];

/** The numbers measured on a sound, before the learned projection. */
export const MEASURE_NAMES: readonly string[] = GROUPS.flatMap((group) => group.names);
if (MEASURE_COUNT !== MEASURE_NAMES.length)
  throw new Error('similar-projection.ts was learned on other measures: run scripts/learn-similar-projection.ts again');
/**
 * How much the learned axes count beside the measures: each axis weighs this times its variance
 * over the training sounds (the index divides by it again, so axes keep the spread the learning
 * gave them). The measures keep their say so that sounds unlike any training family
 * (synthesized effects, ambiences) still find their own kind: this value is the one of 0.3, 1 and
 * 3 that kept the demo catalog's precision (docs/performance.md, "Similar sounds").
 */
const AXES_SAY = 0.3;
/**
 * The position of each number in a descriptor vector, for readers and for weighting: the learned
 * axes, then the measures.
 */
export const DESCRIPTOR_NAMES: readonly string[] = [...PROJECTION.axes.map((_, i) => `axis${i + 1}`), ...MEASURE_NAMES];
export const DESCRIPTOR_LENGTH = DESCRIPTOR_NAMES.length;
/**
 * How much each number counts in a squared distance of normalised numbers: a group's weight
 * squared, shared among its numbers, so that twelve MFCCs do not outvote five envelope numbers.
 */
export const DESCRIPTOR_WEIGHTS: readonly number[] = descriptorWeights(PROJECTION);

/** Learned axes over the measures (similar-projection.ts is one; the evaluation fits others). */
export interface Projection {
  /** Each measure's mean and deviation, to z-score it before projecting. */
  mean: readonly number[];
  scale: readonly number[];
  axes: ReadonlyArray<readonly number[]>;
  /** Each axis's variance over the sounds it was learned on. */
  spread: readonly number[];
}

/** The weights of descriptors made with `projection` (DESCRIPTOR_WEIGHTS for the shipped one). */
export function descriptorWeights(projection: Projection): number[] {
  return [
    ...projection.spread.map((variance) => AXES_SAY * variance),
    ...GROUPS.flatMap((group) => group.names.map(() => group.weight ** 2 / group.names.length)),
  ];
}

/**
 * A descriptor from measures (MEASURE_NAMES in order): their projection on the axes, as a
 * direction, then themselves. The axes say which way a sound lies from the training sounds' mean,
 * not how far: each sound's are scaled to one length, the root of the axes' summed variance
 * (a recording chain moves a sound along its direction more than across it; docs/similar-sounds.md).
 */
export function describeMeasures(measures: readonly number[], projection: Projection = PROJECTION): number[] {
  const axes = projection.axes.map((axis) =>
    axis.reduce((sum, weight, i) => sum + (weight * (measures[i]! - projection.mean[i]!)) / projection.scale[i]!, 0),
  );
  return [...asDirection(axes, projection.spread).map((value) => Number(value.toPrecision(5))), ...measures];
}

/** Projected axes scaled to one length, the root of their summed variance `spread`. */
export function asDirection(axes: readonly number[], spread: readonly number[]): number[] {
  const length = Math.sqrt(axes.reduce((sum, value) => sum + value * value, 0)) || 1;
  const size = Math.sqrt(spread.reduce((sum, variance) => sum + variance, 0));
  return axes.map((value) => (value / length) * size);
}

/**
 * Where a level peaked, and when it first fell 20 (and 40) dB below that peak afterwards. The peak
 * is where the level first came within 3 dB of its maximum: a louder frame moves it only when it
 * is more than 3 dB louder, so in a steady texture (rain, a drone) the peak stays where the sound
 * reached its level instead of landing on whichever frame happened to be loudest.
 */
class PeakTracker {
  level = 0;
  peakFrame = 0;
  down20 = -1;
  down40 = -1;

  /** True when the peak moved to this frame. */
  add(frame: number, energy: number): boolean {
    if (energy > 2 * this.level) {
      this.level = energy;
      this.peakFrame = frame;
      this.down20 = this.down40 = -1;
      return true;
    }
    if (energy > this.level) this.level = energy;
    if (this.down20 < 0 && energy <= this.level * DOWN_20_DB) this.down20 = frame;
    if (this.down40 < 0 && energy <= this.level * DOWN_40_DB) this.down40 = frame;
    return false;
  }

  /** Frames from the peak until the level fell `which` dB below it (until the end if it never did). */
  decayFrames(which: 20 | 40, frames: number): number {
    const down = which === 20 ? this.down20 : this.down40;
    return (down < 0 ? frames : down) - this.peakFrame;
  }
}

export class DescriptorMeter {
  private readonly frame = new Float64Array(FRAME);
  private filled = 0;
  private readonly window = hann(FRAME);
  private readonly fft = new Fft(FRAME);
  private readonly re = new Float64Array(FRAME);
  private readonly im = new Float64Array(FRAME);
  private readonly power = new Float64Array(BINS);
  private readonly mel: MelBank;
  private readonly bands = new Float64Array(MEL_BANDS);
  private readonly sums = new Float64Array(FRAME_FEATURES);
  private readonly squares = new Float64Array(FRAME_FEATURES);
  private readonly features = new Float64Array(FRAME_FEATURES);
  private readonly coarse = new Float64Array(COARSE_BANDS.length);
  /** Energy of each coarse band over the sounding frames. */
  private readonly coarseSums = new Float64Array(COARSE_BANDS.length);
  private readonly coarsePeaks = COARSE_BANDS.map(() => new PeakTracker());
  private readonly whole = new PeakTracker();
  /** Mel band energies of the attack: the peak's frame (PeakTracker) and the frames after it. */
  private readonly attack = new Float64Array(MEL_BANDS);
  private attackFramesLeft = 0;
  /** Each coarse band's energy at the peak's frame, and at AFTER_PEAK frames after it (-1 until read). */
  private readonly atPeak = new Float64Array(COARSE_BANDS.length);
  private readonly afterPeak = new Float64Array(COARSE_BANDS.length * AFTER_PEAK.length).fill(-1);
  private framesSincePeak = 0;
  private peakEnergy = 0;
  private activeFrames = 0;
  private firstActive = -1;
  /** Sums over sounding frames of energy, and of energy times frame number (the temporal centroid). */
  private activeEnergy = 0;
  private activeMoment = 0;
  private framesSeen = 0;
  private readonly periodicity: PeriodicityMeter;

  constructor(private readonly sampleRate: number) {
    this.mel = new MelBank(sampleRate);
    this.periodicity = new PeriodicityMeter(sampleRate);
  }

  /** Feeds frames of every channel; they are mixed to mono. */
  push(channels: readonly Float32Array[], frames: number): void {
    const scale = 1 / channels.length;
    for (let i = 0; i < frames; i++) {
      let sum = 0;
      for (const channel of channels) sum += channel[i]!;
      this.frame[this.filled++] = sum * scale;
      this.periodicity.add(sum * scale);
      if (this.filled === FRAME) {
        this.analyzeFrame();
        this.frame.copyWithin(0, HOP);
        this.filled = FRAME - HOP;
      }
    }
  }

  /** The descriptor vector (the sound's timing and loudness are measured elsewhere and not part of it). */
  finish(): number[] {
    return describeMeasures(this.measures());
  }

  /** The measures, MEASURE_NAMES in order, before the projection (once, after the last push). */
  measures(): number[] {
    // A sound shorter than one frame is described by its one zero-padded frame.
    if (this.framesSeen === 0 && this.filled > 0) {
      this.frame.fill(0, this.filled);
      this.analyzeFrame();
    }
    const n = this.activeFrames;
    const mean = (f: number) => (n === 0 ? 0 : this.sums[f]! / n);
    const deviation = (f: number) => (n === 0 ? 0 : Math.sqrt(Math.max(0, this.squares[f]! / n - mean(f) ** 2)));
    const seconds = (frames: number) => Math.log10(0.01 + (Math.max(0, frames) * HOP) / this.sampleRate);
    const frames = this.framesSeen;
    const totalEnergy = this.coarseSums.reduce((sum, energy) => sum + energy, 0) + 1e-20;
    const first = Math.max(0, this.firstActive);
    const vector = [
      ...Array.from({ length: SPECTRAL_FEATURES }, (_, f) => [mean(f), deviation(f)]).flat(),
      ...Array.from({ length: MFCCS }, (_, c) => mean(SPECTRAL_FEATURES + c)),
      ...Array.from({ length: MFCC_DEVIATIONS }, (_, c) => deviation(SPECTRAL_FEATURES + c)),
      ...mfccs(this.attack),
      ...Array.from(this.coarseSums, (energy) => Math.log10(energy / totalEnergy + 1e-10)),
      ...this.coarsePeaks.map((band) => seconds(band.decayFrames(20, frames))),
      seconds(this.whole.decayFrames(20, frames)),
      seconds(this.whole.decayFrames(40, frames)),
      seconds(this.activeEnergy === 0 ? 0 : this.activeMoment / this.activeEnergy - first),
      seconds(this.whole.peakFrame - first),
      frames === 0 ? 0 : n / frames,
      ...this.attackShares(),
      ...Array.from(this.afterPeak, (energy, i) => {
        const band = Math.floor(i / AFTER_PEAK.length);
        const floor = FLOOR * this.peakEnergy + 1e-20;
        return Math.log10((Math.max(0, energy) + floor) / (this.atPeak[band]! + floor));
      }),
      ...attackShape(this.attack),
      ...this.periodicity.finish(),
    ];
    return vector.map((value) => Number(value.toPrecision(5)));
  }

  /** The share of each coarse band in the attack, as a logarithm. */
  private attackShares(): number[] {
    const shares = COARSE_BANDS.map(([from, to]) =>
      this.attack.subarray(from, to).reduce((sum, value) => sum + value, 0),
    );
    const total = shares.reduce((sum, value) => sum + value, 0) + 1e-20;
    return shares.map((share) => Math.log10(share / total + 1e-10));
  }

  private analyzeFrame(): void {
    const index = this.framesSeen++;
    const { frame, window, re, im, power, bands } = this;
    let energy = 0;
    let crossings = 0;
    for (let i = 0; i < FRAME; i++) {
      const x = frame[i]!;
      energy += x * x;
      if (i > 0 && x >= 0 !== frame[i - 1]! >= 0) crossings++;
      re[i] = x * window[i]!;
      im[i] = 0;
    }
    this.fft.transform(re, im);
    let total = 0;
    for (let k = 0; k < BINS; k++) {
      power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
      total += power[k]!;
    }
    this.mel.apply(power, bands);
    this.followEnvelope(index, Math.sqrt(energy / FRAME) >= SILENT_RMS);
    if (Math.sqrt(energy / FRAME) < SILENT_RMS || total === 0) return;

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
    const coefficients = mfccs(bands);
    for (let c = 0; c < MFCCS; c++) features[SPECTRAL_FEATURES + c] = coefficients[c]!;
    for (let f = 0; f < FRAME_FEATURES; f++) {
      this.sums[f] = this.sums[f]! + features[f]!;
      this.squares[f] = this.squares[f]! + features[f]! * features[f]!;
    }
    this.activeFrames++;
  }

  /** The level-over-time part, from this frame's mel band energies: peaks, decays, attack, band shares. */
  private followEnvelope(index: number, sounding: boolean): void {
    const { bands, coarse } = this;
    coarse.fill(0);
    COARSE_BANDS.forEach(([from, to], c) => {
      for (let b = from; b < to; b++) coarse[c] = coarse[c]! + bands[b]!;
    });
    const energy = coarse.reduce((sum, value) => sum + value, 0);
    for (let c = 0; c < COARSE_BANDS.length; c++) this.coarsePeaks[c]!.add(index, coarse[c]!);
    if (this.whole.add(index, energy)) {
      this.attack.set(bands);
      this.attackFramesLeft = ATTACK_FRAMES - 1;
      this.atPeak.set(coarse);
      this.afterPeak.fill(-1);
      this.framesSincePeak = 0;
      this.peakEnergy = energy;
    } else {
      if (this.attackFramesLeft > 0) {
        for (let b = 0; b < MEL_BANDS; b++) this.attack[b] = this.attack[b]! + bands[b]!;
        this.attackFramesLeft--;
      }
      const at = AFTER_PEAK.indexOf(++this.framesSincePeak);
      if (at >= 0) for (let c = 0; c < coarse.length; c++) this.afterPeak[c * AFTER_PEAK.length + at] = coarse[c]!;
    }
    if (!sounding) return;
    if (this.firstActive < 0) this.firstActive = index;
    for (let c = 0; c < coarse.length; c++) this.coarseSums[c] = this.coarseSums[c]! + coarse[c]!;
    this.activeEnergy += energy;
    this.activeMoment += energy * index;
  }
}

/**
 * Where the attack's energy lies among the mel bands (its centroid, in bands, as a share of
 * them) and how flat it is (geometric over arithmetic mean: near 1 for noise, near 0 for a tone).
 */
function attackShape(bands: Float64Array): number[] {
  let total = 0;
  let moment = 0;
  let logSum = 0;
  for (let b = 0; b < MEL_BANDS; b++) {
    total += bands[b]!;
    moment += b * bands[b]!;
    logSum += Math.log(bands[b]! + 1e-12);
  }
  if (total === 0) return [0, 0];
  return [moment / total / MEL_BANDS, Math.log10(Math.exp(logSum / MEL_BANDS) / (total / MEL_BANDS) + 1e-6)];
}

/** 12 MFCCs of mel band energies: DCT-II of their logarithms, without the 0th coefficient. */
function mfccs(bands: Float64Array): number[] {
  const coefficients: number[] = [];
  for (let c = 1; c <= MFCCS; c++) {
    let sum = 0;
    for (let b = 0; b < MEL_BANDS; b++)
      sum += Math.log10(bands[b]! + 1e-10) * Math.cos((Math.PI * c * (b + 0.5)) / MEL_BANDS);
    coefficients.push(sum * Math.sqrt(2 / MEL_BANDS));
  }
  return coefficients;
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
      if (band + 1 >= 0 && band + 1 < MEL_BANDS)
        bands[band + 1] = bands[band + 1]! + power[k]! * (1 - this.lowWeight[k]!);
    }
  }
}
