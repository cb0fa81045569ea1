import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimilarityIndex } from '@sound-catalog/catalog-index';
import { analyzeAudio } from '../../../src/audio/analyze/index.ts';
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
    'descriptors.projection: the learned axes come first, ' +
      'each the projection of the z-scored measures that follow',
    () => {
      assert.equal(PROJECTION.axes.length + MEASURE_NAMES.length, DESCRIPTOR_LENGTH);
      assert.ok(PROJECTION.axes.length >= 2 && PROJECTION.axes.every((axis) => axis.length === MEASURE_NAMES.length));
      const next = random(7);
      const vector = descriptorsOf(KINDS.snare!(next));
      const measures = vector.slice(PROJECTION.axes.length);
      PROJECTION.axes.forEach((axis, a) => {
        const expected = axis.reduce(
          (sum, weight, i) => sum + (weight * (measures[i]! - PROJECTION.mean[i]!)) / PROJECTION.scale[i]!,
          0,
        );
        // The measures are stored to 5 significant digits, the axes computed before that rounding.
        assert.ok(
          Math.abs(vector[a]! - expected) < 1e-2 * (1 + Math.abs(expected)),
          `axis ${a + 1}: ${vector[a]} against ${expected}`,
        );
      });
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
