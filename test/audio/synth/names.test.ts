import assert from 'node:assert/strict';
import { test } from 'node:test';
import { synthesizeCatalog, synthesizeSound, type SynthSound } from '../../../src/audio/synth/index.ts';
import { DEFAULT_SEED, DEFAULT_SEED_COUNT } from '../../../src/commands/seed.ts';
import { findDemoRecordings } from '../../../src/ingest/demo-recordings.ts';

/** The words that say what a sound of each category is, one of which its name carries. */
const CATEGORY_WORDS: Readonly<Record<SynthSound['category'], RegExp>> = {
  SFX: new RegExp(
    `\\b(${[
      'laser',
      'whoosh',
      'swoosh',
      'swish',
      'thud',
      'punch',
      'coin',
      'pickup',
      'gem',
      'click',
      'beep',
      'blip',
      'chime',
      'jingle',
      'buzz',
      'explosion',
      'footsteps',
      'power-up',
      'alarm',
      'siren',
      'door',
      'metal',
    ].join('|')})\\b`,
    'i',
  ),
  AMBIENT: /\b(rain|wind|breeze|waves|campfire|crickets|room tone|hum|buzz)\b/i,
  MUSIC: /\bloop\b/i,
  LOFI: /\bloop\b/i,
};

// "#3" is a take number; the "#7" of a chord ("F#7") is not, and is written against its note.
const SERIAL = [/\d$/, / \d+$/, /(^|[\s,(])#\s*\d/, / \d+ - /];

test('synth.names: the first-start demo catalog has distinct, descriptive names without serial numbers', () => {
  const catalog = [...synthesizeCatalog({ count: DEFAULT_SEED_COUNT, seed: DEFAULT_SEED })];
  const seen = new Map<string, string>();
  for (const sound of catalog) {
    for (const pattern of SERIAL) assert.doesNotMatch(sound.name, pattern, `${sound.key}: ${sound.name}`);
    assert.ok(!seen.has(sound.name), `${sound.key} and ${seen.get(sound.name)} are both "${sound.name}"`);
    seen.set(sound.name, sound.key);
    assert.match(sound.name, CATEGORY_WORDS[sound.category], `${sound.category}: ${sound.name}`);
    const titleWords = sound.title.toLowerCase().split(' ');
    assert.ok(
      titleWords.some((word) => sound.tags.includes(word)),
      `"${sound.title}" shares no word with its tags`,
    );
    // Words past the title describe this sound: a name is more than what kind of sound it is.
    assert.ok(sound.details.length > 0 && sound.name.length > sound.title.length + 10, sound.name);
  }
  assert.equal(seen.size, DEFAULT_SEED_COUNT);
  for (const index of [0, 1, 2, 3, 500, DEFAULT_SEED_COUNT - 1]) {
    assert.equal(synthesizeSound(DEFAULT_SEED, index).name, catalog[index]!.name, 'same seed, same name');
  }
});

test('synth.names: the recordings beside them are told apart by their length, not a take number', async () => {
  const recordings = await findDemoRecordings();
  const names = recordings.map((recording) => recording.name);
  for (const name of names) for (const pattern of SERIAL) assert.doesNotMatch(name, pattern, name);
  assert.equal(new Set(names).size, names.length, 'every recording has a name of its own');
  const ghe = names.filter((name) => name.startsWith('Tabla Ghe, '));
  assert.ok(ghe.includes('Tabla Ghe, 591 ms') && ghe.includes('Tabla Ghe, 2.39 Seconds'), 'takes differ by length');
  assert.ok(names.includes('Guitar Em9 Chord'), "a chord's number is not a take number");
});
