import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CATEGORY_DURATION,
  synthesizeCatalog,
  type SynthCategory,
  type SynthSound,
} from '../../../src/audio/synth/index.ts';

const CATALOG: SynthSound[] = [...synthesizeCatalog({ count: 200, seed: 'catalog-test' })];
const CATEGORIES: SynthCategory[] = ['SFX', 'AMBIENT', 'MUSIC', 'LOFI'];

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

test('synth.catalog: every category appears in a catalog of 200', () => {
  const counts = countBy(CATALOG, (sound) => sound.category);
  for (const category of CATEGORIES) assert.ok((counts.get(category) ?? 0) > 0, `${category} missing`);
});

test('synth.catalog: mostly effects, then ambience and music', () => {
  const counts = countBy(CATALOG, (sound) => sound.category);
  const share = (category: SynthCategory) => (counts.get(category) ?? 0) / CATALOG.length;
  assert.ok(share('SFX') > 0.45 && share('SFX') < 0.75, `SFX share ${share('SFX')}`);
  for (const category of ['AMBIENT', 'MUSIC', 'LOFI'] as const) {
    assert.ok(share(category) > 0.04 && share(category) < 0.3, `${category} share ${share(category)}`);
  }
});

test('synth.catalog: the first sounds of every category are public samples, then about one in 40', () => {
  for (const category of CATEGORIES) {
    const firstTwo = CATALOG.filter((sound) => sound.category === category).slice(0, 2);
    assert.ok(
      firstTwo.every((sound) => sound.sample),
      `first ${category} sounds should be samples`,
    );
  }
  const samples = CATALOG.filter((sound) => sound.sample).length;
  assert.ok(samples >= 12 && samples <= 30, `samples: ${samples}`);
  assert.ok(CATALOG.some((sound) => !sound.sample));
});

test('synth.catalog: names and keys are unique, descriptions one sentence', () => {
  assert.equal(new Set(CATALOG.map((sound) => sound.key)).size, CATALOG.length);
  assert.ok(CATALOG.every((sound) => sound.name.trim().length > 0));
  assert.equal(new Set(CATALOG.map((sound) => sound.name)).size, CATALOG.length);
  for (const sound of CATALOG) {
    assert.match(sound.description, /^[A-Z0-9].*\.$/, sound.description);
    assert.ok(!sound.description.slice(0, -1).includes('. '), `more than one sentence: ${sound.description}`);
  }
});

test('synth.catalog: tags are lowercase words, several per sound', () => {
  for (const sound of CATALOG) {
    assert.ok(sound.tags.length >= 3, `${sound.name}: too few tags`);
    assert.equal(new Set(sound.tags).size, sound.tags.length, `${sound.name}: duplicate tags`);
    for (const tag of sound.tags) assert.match(tag, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${sound.name}: tag "${tag}"`);
  }
});

test('synth.audio: no clipping, no NaN, no DC offset, not silent', () => {
  for (const sound of CATALOG) {
    for (const channel of sound.audio.channels) {
      let peak = 0;
      let sum = 0;
      let energy = 0;
      for (let i = 0; i < channel.length; i++) {
        const x = channel[i]!;
        assert.ok(Number.isFinite(x), `${sound.name}: non-finite sample`);
        peak = Math.max(peak, Math.abs(x));
        sum += x;
        energy += x * x;
      }
      assert.ok(peak <= 1, `${sound.name}: clips at ${peak}`);
      assert.ok(peak > 0.01, `${sound.name}: peak only ${peak}`);
      assert.ok(Math.abs(sum / channel.length) < 0.01, `${sound.name}: DC offset ${sum / channel.length}`);
      assert.ok(Math.sqrt(energy / channel.length) > 0.001, `${sound.name}: nearly silent`);
    }
  }
});

test('synth.audio: starts and ends quietly, so playback never clicks', () => {
  for (const sound of CATALOG) {
    for (const channel of sound.audio.channels) {
      assert.ok(Math.abs(channel[0]!) < 0.01, `${sound.name}: starts at ${channel[0]}`);
      assert.ok(Math.abs(channel[channel.length - 1]!) < 0.01, `${sound.name}: ends at ${channel[channel.length - 1]}`);
    }
  }
});

test('synth.audio: sample rate, channels and duration fit the category', () => {
  for (const sound of CATALOG) {
    const { sampleRate, channels } = sound.audio;
    assert.ok(sampleRate === 44100 || sampleRate === 48000, `${sound.name}: ${sampleRate} Hz`);
    assert.ok(channels.length === 1 || channels.length === 2);
    assert.ok(channels.every((channel) => channel.length === channels[0]!.length));
    const seconds = channels[0]!.length / sampleRate;
    const range = CATEGORY_DURATION[sound.category];
    assert.ok(
      seconds >= range.min && seconds <= range.max,
      `${sound.name}: ${seconds} s outside ${range.min}–${range.max}`,
    );
  }
});

test('synth.audio: most effects are short, keeping the catalog quick to build', () => {
  const effects = CATALOG.filter((sound) => sound.category === 'SFX');
  const seconds = (sound: SynthSound) => sound.audio.channels[0]!.length / sound.audio.sampleRate;
  assert.ok(effects.filter((sound) => seconds(sound) < 2).length > effects.length * 0.6);
  const average = CATALOG.reduce((total, sound) => total + seconds(sound), 0) / CATALOG.length;
  assert.ok(average > 3 && average < 12, `average duration ${average}`);
});
