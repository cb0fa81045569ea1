import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateAmbient } from '../../../src/audio/synth/ambient/index.ts';
import { demoName, synthesizeCatalog, type SynthSound } from '../../../src/audio/synth/index.ts';
import { generateLofi, generateMusic } from '../../../src/audio/synth/music/index.ts';
import { Random } from '../../../src/audio/synth/random.ts';
import { generateSfx } from '../../../src/audio/synth/sfx/index.ts';
import { generateLaser } from '../../../src/audio/synth/sfx/laser.ts';
import type { SoundDraft, SoundGenerator } from '../../../src/audio/synth/sound.ts';

const draw = (generator: SoundGenerator, label: string, count: number): SoundDraft[] =>
  Array.from({ length: count }, (_, i) => generator({ rng: new Random(`${label}:${i}`), sampleRate: 44100 }));
const secondsOf = (draft: SoundDraft) => draft.audio.channels[0]!.length / draft.audio.sampleRate;
const named = (draft: SoundDraft) => `${draft.title} (${draft.description})`;

/** Zero crossings per sample over a stretch: a rough pitch for a single tone. */
function crossingRate(samples: Float32Array, from: number, to: number): number {
  let crossings = 0;
  for (let i = from + 1; i < to; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  return crossings / Math.max(1, to - from);
}

test('synth.metadata: lasers are short pitch-down sweeps, and "short" ones last under a second', () => {
  const lasers = draw(generateLaser, 'laser', 60);
  for (const laser of lasers) {
    assert.ok(laser.tags.includes('laser') && laser.tags.includes('sci-fi'), named(laser));
    assert.ok(secondsOf(laser) < 1.5, `${named(laser)}: ${secondsOf(laser)} s`);
    if (laser.tags.includes('short')) assert.ok(secondsOf(laser) < 1, `${named(laser)}: ${secondsOf(laser)} s`);
    const samples = laser.audio.channels[0]!;
    const onset = samples.findIndex((x) => Math.abs(x) > 0.01);
    const shotSeconds = Number(/in ([\d.]+) seconds?/.exec(laser.description)?.[1]);
    assert.ok(shotSeconds > 0 && shotSeconds < 1.5, `${named(laser)}: sweep time`);
    const firstShotEnd = onset + Math.round(0.8 * shotSeconds * 44100);
    const early = crossingRate(samples, onset, onset + Math.round(0.01 * 44100));
    const late = crossingRate(samples, firstShotEnd - Math.round(0.01 * 44100), firstShotEnd);
    assert.ok(early > late * 1.3, `${named(laser)}: pitch should fall (${early} vs ${late})`);
  }
  assert.ok(
    lasers.filter((laser) => laser.tags.includes('short')).length > lasers.length / 2,
    'most lasers are short zaps',
  );
});

const EFFECTS = draw(generateSfx, 'sfx', 250);

test('synth.metadata: length and channel tags match the audio', () => {
  for (const effect of EFFECTS) {
    if (effect.tags.includes('short')) assert.ok(secondsOf(effect) < 1, `${named(effect)}: ${secondsOf(effect)} s`);
    if (effect.tags.includes('long')) assert.ok(secondsOf(effect) >= 2.5, `${named(effect)}: ${secondsOf(effect)} s`);
    if (effect.tags.includes('stereo')) assert.equal(effect.audio.channels.length, 2, named(effect));
  }
});

test('synth.metadata: search words find the right kind of sound', () => {
  const effects = EFFECTS;
  const expectations: [string, (draft: SoundDraft) => boolean][] = [
    ['laser', (d) => /laser/i.test(d.title)],
    ['coin', (d) => /coin/i.test(d.title)],
    ['whoosh', (d) => /whoosh|swoosh|swish/i.test(d.title)],
    ['explosion', (d) => /explosion/i.test(d.title)],
    ['footsteps', (d) => /footsteps/i.test(d.title)],
    ['alarm', (d) => /alarm|siren/i.test(d.title)],
    ['door', (d) => /door/i.test(d.title)],
  ];
  for (const [word, looksRight] of expectations) {
    const found = effects.filter((draft) => draft.tags.includes(word));
    assert.ok(found.length > 0, `nothing tagged "${word}"`);
    for (const draft of found) assert.ok(looksRight(draft), `"${word}" found ${named(draft)}`);
  }
  const ambiences = draw(generateAmbient, 'ambient', 40);
  for (const word of ['rain', 'wind', 'waves']) {
    const found = ambiences.filter((draft) => draft.tags.includes(word));
    assert.ok(found.length > 0, `nothing tagged "${word}"`);
    for (const draft of found)
      assert.ok(
        draft.title
          .toLowerCase()
          .includes(word === 'wind' ? (draft.tags.includes('breeze') ? 'breeze' : 'wind') : word),
        named(draft),
      );
  }
});

test('synth.metadata: loops state their real tempo, key and length', () => {
  const loops = [...draw(generateMusic, 'music', 12), ...draw(generateLofi, 'lofi', 12)];
  for (const loop of loops) {
    const match = /^(\d+) BPM in ([A-G][#b]?) (major|minor)$/.exec(loop.subtitle ?? '');
    assert.ok(match, `subtitle: ${loop.subtitle}`);
    const bpm = Number(match[1]);
    assert.ok(
      loop.tags.includes(`${bpm}bpm`) && loop.tags.includes(match[3]!) && loop.tags.includes('loop'),
      named(loop),
    );
    assert.ok(
      loop.tags.some((tag) => tag.endsWith(`-${match[3]}`) && tag.startsWith(match[2]!.charAt(0).toLowerCase())),
      `${named(loop)}: key tag`,
    );
    const bars = Number(loop.tags.find((tag) => /^\d+-bars$/.test(tag))?.split('-')[0]);
    const expected = (bars * 4 * 60) / bpm;
    assert.ok(
      Math.abs(secondsOf(loop) - expected) < 0.001,
      `${named(loop)}: ${secondsOf(loop)} s, ${bars} bars at ${bpm} BPM is ${expected} s`,
    );
    assert.ok(loop.description.includes(`${bpm} BPM`), loop.description);
  }
  const lofi = draw(generateLofi, 'lofi-words', 6);
  for (const loop of lofi)
    for (const word of ['lofi', 'chill', 'jazzy']) assert.ok(loop.tags.includes(word), `${named(loop)} lacks ${word}`);
});

test('synth.metadata: a name is its title, how it sounds, then its subtitle; music names say tempo and key', () => {
  const catalog: SynthSound[] = [...synthesizeCatalog({ count: 12, seed: 'names' })];
  for (const sound of catalog) {
    assert.equal(sound.name, demoName(sound));
    assert.ok(sound.name.startsWith(`${sound.title}, `) && sound.details.length > 0, sound.name);
    assert.doesNotMatch(sound.name, /\d$/, sound.name);
  }
  for (const sound of catalog.filter((s) => s.category === 'MUSIC' || s.category === 'LOFI')) {
    assert.match(sound.name, /Loop, .*\b(Two|Four|Eight|16) Bars - \d+ BPM in [A-G][#b]? (major|minor)$/);
  }
  const loop = {
    title: 'Chill Loop',
    details: ['Electric Piano'],
    refinements: ['Swung'],
    subtitle: '80 BPM in D minor',
  };
  assert.equal(demoName(loop), 'Chill Loop, Electric Piano - 80 BPM in D minor');
  assert.equal(demoName(loop, 1), 'Chill Loop, Electric Piano, Swung - 80 BPM in D minor');
});
