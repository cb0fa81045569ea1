import assert from 'node:assert/strict';
import { test } from 'node:test';
import { synthesizeCatalog, synthesizeSound, type SynthSound } from '../../../src/audio/synth/index.ts';

function metadataOf(sound: SynthSound) {
  const { audio, ...metadata } = sound;
  return { ...metadata, sampleRate: audio.sampleRate, channels: audio.channels.length };
}

function sameSamples(a: SynthSound, b: SynthSound): boolean {
  if (a.audio.channels.length !== b.audio.channels.length) return false;
  return a.audio.channels.every((channel, c) => {
    const other = b.audio.channels[c]!;
    return (
      channel.length === other.length &&
      Buffer.from(channel.buffer, channel.byteOffset, channel.byteLength).equals(
        Buffer.from(other.buffer, other.byteOffset, other.byteLength),
      )
    );
  });
}

test('synth.determinism: the same seed and index give byte-identical audio and metadata', () => {
  // The first four indices cover all four categories.
  for (const index of [0, 1, 2, 3, 17]) {
    const first = synthesizeSound('determinism', index);
    const second = synthesizeSound('determinism', index);
    assert.deepEqual(metadataOf(first), metadataOf(second));
    assert.ok(sameSamples(first, second), `samples differ for index ${index}`);
  }
});

test('synth.determinism: a sound does not depend on the sounds generated before it', () => {
  const fromCatalog = [...synthesizeCatalog({ count: 6, seed: 42 })][5]!;
  const alone = synthesizeSound(42, 5);
  assert.deepEqual(metadataOf(fromCatalog), metadataOf(alone));
  assert.ok(sameSamples(fromCatalog, alone));
});

test('synth.determinism: different seeds give different catalogs', () => {
  const a = [...synthesizeCatalog({ count: 8, seed: 'alpha' })];
  const b = [...synthesizeCatalog({ count: 8, seed: 'beta' })];
  const differing = a.filter((sound, i) => sound.name !== b[i]!.name || !sameSamples(sound, b[i]!));
  assert.equal(differing.length, a.length, 'every sound should differ between seeds');
  assert.notEqual(a[0]!.key, b[0]!.key);
});

test('synth.determinism: keys are stable, unique per index, and safe for file names', () => {
  assert.equal(synthesizeSound('demo', 7).key, 'demo-demo-7');
  const odd = synthesizeSound('My Seed/../x', 0).key;
  assert.match(odd, /^demo-[a-z0-9-]+-0$/);
  assert.notEqual(odd, synthesizeSound('my-seed-x', 0).key);
});

test('synth.catalog: the catalog is lazy, so huge counts cost nothing until iterated', () => {
  const started = Date.now();
  const catalog = synthesizeCatalog({ count: 1_000_000, seed: 'lazy' });
  const iterator = catalog[Symbol.iterator]();
  const first = iterator.next();
  assert.equal(first.done, false);
  assert.equal(first.value?.key, 'demo-lazy-0');
  // Generous bound: one sound, not a million, was made.
  assert.ok(Date.now() - started < 10_000);
});

test('synth.catalog: bad counts and indices are refused', () => {
  assert.throws(() => synthesizeCatalog({ count: -1, seed: 1 }), RangeError);
  assert.throws(() => synthesizeCatalog({ count: 1.5, seed: 1 }), RangeError);
  assert.throws(() => synthesizeSound(1, -2), RangeError);
  assert.deepEqual([...synthesizeCatalog({ count: 0, seed: 1 })], []);
});
