import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimilarityIndex } from '@sound-catalog/catalog-index';
import { analyzeAudio, createAnalyzer } from '../../../src/audio/analyze/index.ts';
import { PERIODICITY_NAMES } from '../../../src/audio/analyze/periodicity.ts';
import {
  DESCRIPTOR_LENGTH,
  DESCRIPTOR_NAMES,
  DESCRIPTOR_WEIGHTS,
  MEASURE_NAMES,
} from '../../../src/audio/analyze/descriptors.ts';
import { PROJECTION } from '../../../src/audio/analyze/similar-projection.ts';
import type { PcmAudio } from '../../../src/audio/types.ts';
import { seededRandom as random } from '../helpers/signals.ts';

const RATE = 44_100;

/** `seconds` of mono audio: `before` seconds of silence, then `sample(t)` for t from 0. */
function audio(seconds: number, before: number, sample: (t: number) => number): PcmAudio {
  const samples = new Float32Array(Math.round(seconds * RATE));
  const start = Math.round(before * RATE);
  for (let i = start; i < samples.length; i++) samples[i] = sample((i - start) / RATE);
  return { sampleRate: RATE, channels: [samples] };
}

/**
 * One-shots and textures of four kinds, each varied as recordings of a kind are: level, silence
 * before, length, pitch and decay.
 */
const KINDS: Record<string, (next: () => number) => PcmAudio> = {
  kick: (next) => {
    const gain = 10 ** (-(3 + next() * 20) / 20);
    const [high, low, decay] = [120 + next() * 60, 40 + next() * 20, 0.12 + next() * 0.2];
    return audio(0.6 + next() * 0.8, next() * 0.15, (t) => {
      const phase = 2 * Math.PI * (low * t + (high - low) * 0.03 * (1 - Math.exp(-t / 0.03)));
      return gain * Math.sin(phase) * Math.exp(-t / decay);
    });
  },
  snare: (next) => {
    const gain = 10 ** (-(3 + next() * 20) / 20);
    const [tone, decay] = [170 + next() * 60, 0.08 + next() * 0.1];
    const noise = random(Math.floor(next() * 1e9));
    return audio(
      0.5 + next() * 0.6,
      next() * 0.15,
      (t) => gain * Math.exp(-t / decay) * (0.35 * Math.sin(2 * Math.PI * tone * t) + 0.65 * (noise() * 2 - 1)),
    );
  },
  hat: (next) => {
    const gain = 10 ** (-(3 + next() * 20) / 20);
    const decay = 0.02 + next() * 0.05;
    const noise = random(Math.floor(next() * 1e9));
    let previous = 0;
    return audio(0.3 + next() * 0.5, next() * 0.15, (t) => {
      const white = noise() * 2 - 1;
      const high = white - previous; // a first difference: the noise's energy moved up high
      previous = white;
      return gain * 0.5 * high * Math.exp(-t / decay);
    });
  },
  pad: (next) => {
    const gain = 10 ** (-(6 + next() * 20) / 20);
    const root = 110 * 2 ** Math.floor(next() * 3) * (1 + next() * 0.5);
    const length = 2 + next() * 2;
    return audio(length + 0.2, next() * 0.15, (t) => {
      const fade = Math.min(1, t / 0.3, Math.max(0, (length - t) / 0.3));
      return (
        (gain *
          fade *
          (Math.sin(2 * Math.PI * root * t) +
            0.5 * Math.sin(2 * Math.PI * root * 1.5 * t) +
            0.3 * Math.sin(2 * Math.PI * root * 2 * t))) /
        1.8
      );
    });
  },
};

const descriptorsOf = (sound: PcmAudio) => analyzeAudio(sound).descriptors!;

describe('audio descriptors', () => {
  test(
    'descriptors.shape: one finite number per name, for ' + 'silence, a click shorter than a frame, and a long texture',
    () => {
      assert.equal(DESCRIPTOR_NAMES.length, DESCRIPTOR_LENGTH);
      assert.equal(DESCRIPTOR_WEIGHTS.length, DESCRIPTOR_LENGTH);
      assert.equal(new Set(DESCRIPTOR_NAMES).size, DESCRIPTOR_LENGTH);
      const noise = random(3);
      for (const sound of [
        audio(1, 0, () => 0),
        audio(0.01, 0, (t) => Math.sin(2 * Math.PI * 1000 * t)),
        audio(3, 0, () => 0.1 * (noise() * 2 - 1)),
      ]) {
        const vector = descriptorsOf(sound);
        assert.equal(vector.length, DESCRIPTOR_LENGTH);
        assert.ok(vector.every(Number.isFinite), JSON.stringify(vector));
      }
    },
  );

  test('descriptors.steady: a steady texture is described the same at another level and from another frame', () => {
    const noise = random(5);
    const rain = Float32Array.from({ length: 4 * RATE }, () => noise() * 2 - 1);
    const at = (gain: number, offset: number): PcmAudio => ({
      sampleRate: RATE,
      channels: [rain.map((x) => x * gain).subarray(offset)],
    });
    const a = descriptorsOf(at(0.2, 0));
    const b = descriptorsOf(at(0.05, 777));
    // Where the peak is (the rise, the decays, the centre in time) does not hang on one louder frame.
    for (const name of [
      'rise',
      'decay_20db',
      'decay_40db',
      'band1_decay',
      'band6_decay',
      'temporal_centroid',
      'sounding_share',
    ]) {
      const i = DESCRIPTOR_NAMES.indexOf(name);
      assert.ok(Math.abs(a[i]! - b[i]!) < 0.05, `${name}: ${a[i]} against ${b[i]}`);
    }
    // Timbre over every frame, and over the three frames of the attack (a noisier estimate).
    for (const [name, within] of [
      ['band1_share', 0.05],
      ['mfcc1_mean', 0.05],
      ['attack_mfcc1', 0.3],
    ] as const) {
      const i = DESCRIPTOR_NAMES.indexOf(name);
      assert.ok(Math.abs(a[i]! - b[i]!) < within, `${name}: ${a[i]} against ${b[i]}`);
    }
  });

  test(
    'descriptors.projection: the learned axes come first, the direction of the projection of the ' +
      'z-scored measures that follow, at the length the axes spread over',
    () => {
      assert.equal(PROJECTION.axes.length + MEASURE_NAMES.length, DESCRIPTOR_LENGTH);
      assert.ok(PROJECTION.axes.length >= 2 && PROJECTION.axes.every((axis) => axis.length === MEASURE_NAMES.length));
      const length = Math.sqrt(PROJECTION.spread.reduce((sum, variance) => sum + variance, 0));
      const next = random(7);
      for (const kind of ['snare', 'kick'] as const) {
        const vector = descriptorsOf(KINDS[kind]!(next));
        const measures = vector.slice(PROJECTION.axes.length);
        const projected = PROJECTION.axes.map((axis) =>
          axis.reduce(
            (sum, weight, i) => sum + (weight * (measures[i]! - PROJECTION.mean[i]!)) / PROJECTION.scale[i]!,
            0,
          ),
        );
        const norm = Math.sqrt(projected.reduce((sum, value) => sum + value * value, 0));
        projected.forEach((value, a) => {
          const expected = (value / norm) * length;
          // The measures are stored to 5 significant digits, the axes computed before that rounding.
          assert.ok(
            Math.abs(vector[a]! - expected) < 1e-2 * (1 + Math.abs(expected)),
            `${kind}, axis ${a + 1}: ${vector[a]} against ${expected}`,
          );
        });
      }
    },
  );

  test(
    'descriptors.periodicity: a ringing tone is periodic at its period after the peak, noise is not, ' +
      'whatever its level and however the samples are cut into chunks',
    () => {
      const at = (name: string) => DESCRIPTOR_NAMES.indexOf(name);
      const ring = (gain: number) =>
        audio(0.6, 0.05, (t) => gain * Math.sin(2 * Math.PI * 200 * t) * Math.exp(-t / 0.15));
      const noise = random(9);
      const hiss = audio(0.6, 0.05, (t) => 0.5 * (noise() * 2 - 1) * Math.exp(-t / 0.15));
      const tone = descriptorsOf(ring(0.5));
      assert.ok(tone[at('periodicity_0_100ms')]! > 0.9, `tone: ${tone[at('periodicity_0_100ms')]}`);
      assert.ok(tone[at('periodicity_100_300ms')]! > 0.9, `tone: ${tone[at('periodicity_100_300ms')]}`);
      // 200 Hz: a period of 5 ms (or a multiple, which repeats as well).
      for (const name of ['period_0_100ms', 'period_100_300ms']) {
        const periods = 10 ** tone[at(name)]! / 0.005;
        assert.ok(Math.abs(periods - Math.round(periods)) < 0.01, `${name}: ${10 ** tone[at(name)]!} s`);
      }
      const hissed = descriptorsOf(hiss);
      assert.ok(hissed[at('periodicity_0_100ms')]! < 0.3, `noise: ${hissed[at('periodicity_0_100ms')]}`);
      assert.ok(hissed[at('periodicity_highs_0_100ms')]! < 0.3, `noise: ${hissed[at('periodicity_highs_0_100ms')]}`);
      // 30 dB quieter: the same numbers.
      const quiet = descriptorsOf(ring(0.5 * 10 ** (-30 / 20)));
      for (const name of PERIODICITY_NAMES) assert.ok(Math.abs(quiet[at(name)]! - tone[at(name)]!) < 1e-3, name);
      // Against a plain reading of the whole sound: sounds loudest at the start, in the middle, in
      // the frames that run past the end, and shorter than a frame.
      const steep = audio(0.3013, 0, (t) => 0.2 * (noise() * 2 - 1) * Math.exp((t - 0.3) / 0.002));
      // Loudest in the middle of the first frame that runs past the end (they start every 256 samples).
      const burst = audio(
        13_200 / RATE,
        0,
        (t) => Math.sin(2 * Math.PI * 300 * t) * Math.exp(-(((t * RATE - 13_056) / 60) ** 2)),
      );
      for (const sound of [
        KINDS.snare!(random(17)),
        KINDS.kick!(random(19)),
        hiss,
        steep,
        burst,
        audio(0.008, 0, (t) => Math.sin(900 * t)),
      ]) {
        const got = descriptorsOf(sound);
        const expected = periodicityOf(sound.channels[0]!, sound.sampleRate);
        PERIODICITY_NAMES.forEach((name, i) =>
          assert.ok(Math.abs(got[at(name)]! - expected[i]!) < 2e-3, `${name}: ${got[at(name)]} against ${expected[i]}`),
        );
      }
      // Streamed in chunks of odd sizes: the same descriptor as in one piece.
      const sound = KINDS.snare!(random(13));
      const samples = sound.channels[0]!;
      const analyzer = createAnalyzer(sound.sampleRate, 1);
      for (let from = 0, size = 1; from < samples.length; from += size, size = (size * 7 + 3) % 1500) {
        analyzer.push([samples.subarray(from, from + size)]);
      }
      assert.deepEqual(analyzer.finish().descriptors, descriptorsOf(sound));
    },
  );

  test("descriptors.kinds: a kick's nearest sounds are kicks, a snare's snares, a hat's hats, a pad's pads", () => {
    const next = random(11);
    const sounds = Object.entries(KINDS).flatMap(([kind, make]) =>
      Array.from({ length: 8 }, () => ({ kind, vector: descriptorsOf(make(next)) })),
    );
    const index = new SimilarityIndex(DESCRIPTOR_WEIGHTS);
    sounds.forEach((sound, doc) => index.set(doc, sound.vector));
    for (const kind of Object.keys(KINDS)) {
      const own = sounds.flatMap((sound, doc) => (sound.kind === kind ? [doc] : []));
      const hits = own.reduce(
        (sum, doc) => sum + index.nearest(doc, 3).filter((n) => sounds[n.doc]!.kind === kind).length,
        0,
      );
      assert.ok(hits / (own.length * 3) >= 0.9, `${kind}: ${hits} of ${own.length * 3} nearest of the same kind`);
    }
  });
});

/**
 * The periodicity numbers read straight from the whole sound: the peak over fine frames (512
 * samples every 256, Hann, zero past the end; the first within 3 dB of the loudest), then each
 * stretch's autocorrelation summed lag by lag.
 */
function periodicityOf(x: Float32Array, rate: number): number[] {
  const window = (length: number) =>
    Float64Array.from({ length }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / length));
  const fine = window(512);
  let level = 0;
  let peak = 0;
  for (let start = 0; start < x.length; start += 256) {
    let energy = 0;
    for (let i = 0; i < 512; i++) energy += ((x[start + i] ?? 0) * fine[i]!) ** 2;
    if (energy > 2 * level) [level, peak] = [energy, start];
    else if (energy > level) level = energy;
  }
  const stretch = (fromMs: number, toMs: number, differences: number): [number, number] => {
    const from = Math.min(x.length, peak + Math.floor((fromMs * rate) / 1000));
    const to = Math.min(x.length, peak + Math.floor((toMs * rate) / 1000));
    let y = Float64Array.from(x.subarray(from, to));
    for (let d = 0; d < differences; d++) y = y.map((value, i, all) => (i === 0 ? 0 : value - all[i - 1]!));
    if (y.length <= 64) y = new Float64Array(64);
    const w = window(y.length);
    y = y.map((value, i) => value * w[i]!);
    const sum = (lag: number) =>
      y.reduce((total, value, i) => (i + lag < y.length ? total + value * y[i + lag]! : total), 0);
    const atZero = sum(0) || 1e-20;
    let best = 0;
    let lag = Math.floor(rate / 1000);
    for (let l = lag; l <= Math.min(Math.floor(rate / 40), y.length - 1); l++) {
      const value = sum(l) / atZero / (1 - l / y.length);
      if (value > best) [best, lag] = [value, l];
    }
    return [Math.min(1, best), Math.log10(lag / rate)];
  };
  return [...stretch(0, 100, 0), ...stretch(100, 300, 0), stretch(0, 100, 2)[0], stretch(100, 300, 2)[0]];
}
