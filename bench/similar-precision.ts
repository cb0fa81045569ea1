/**
 * Precision at 5 of similar sounds against labelled families:
 *   node --import tsx bench/similar-precision.ts [DEMO_COUNT] [REAL_DIR]
 *
 * - The demo catalog: DEMO_COUNT synthesized sounds (default 600, seed "precision"), each made
 *   into its MP3 and measured as ingest does; a sound's family is its generator (the first tag
 *   of an effect or ambience: laser, rain, ...; the category for music and lo-fi).
 * - Real recordings (optional): the folder of Sonic Pi's CC0 samples (freesound.org) as the npm
 *   package `ultrasonic` ships them (`npm pack ultrasonic && tar xzf ultrasonic-*.tgz`, then
 *   REAL_DIR=package). Families are set by hand below from the file names (kicks, snares,
 *   cymbals, ...); sounds that belong to no family stay in the catalog as distractors.
 *
 * For each labelled sound, its 5 nearest (never itself) are asked from the same index the
 * service uses; precision is the share of those in the sound's own family. Reported per family,
 * over all, and for the real recordings inside the demo catalog (a harder, more realistic test).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { synthesizeSound } from '../src/audio/synth/index.ts';
import { SimilarityIndex } from '../src/catalog/index/similar.ts';
import { encodeAndMeasure, measureFile } from '../src/ingest/measure.ts';

interface Labelled { name: string; family: string | null; descriptors: number[] }

/** Sonic Pi sample names to families; a name matching no rule is a distractor. */
const REAL_FAMILIES: Array<[RegExp, string]> = [
  [/^(bd_|drum_heavy_kick|drum_bass_|elec_hollow_kick|elec_soft_kick)/, 'kick'],
  [/^(sn_|drum_snare_|elec_(filt_|hi_|lo_|mid_)?snare)/, 'snare'],
  [/^(drum_cymbal_|drum_splash_|elec_cymbal)/, 'cymbal'],
  [/^(drum_tom_|elec_fuzz_tom)/, 'tom'],
  [/^ambi_/, 'ambience'],
  [/^bass_/, 'bass'],
  [/^loop_/, 'loop'],
  [/^tabla_/, 'tabla'],
  [/^guit_/, 'guitar'],
  [/^vinyl_/, 'vinyl'],
  [/^elec_(beep|blip|blip2|blup|bong|chime|ping|plip|pop|tick|twang|twip|flip|bell|triangle)$/, 'electronic blip'],
];

const demoCount = Number(process.argv[2] ?? 600);
const realDir = process.argv[3];

const demo = await demoSounds(demoCount);
console.log(`demo: ${demo.length} sounds`);
report('demo catalog (synthesized), families = generators', demo, demo);
if (realDir) {
  const real = await realSounds(realDir);
  console.log(`real: ${real.length} recordings, ${real.filter((sound) => sound.family).length} in a family`);
  report('real recordings alone (Sonic Pi CC0 samples)', real, real);
  report('real recordings inside the demo catalog', real, [...demo, ...real]);
}

async function demoSounds(count: number): Promise<Labelled[]> {
  const sounds: Labelled[] = [];
  for (let index = 0; index < count; index++) {
    const sound = synthesizeSound('precision', index);
    const { measurements } = await encodeAndMeasure(sound.audio);
    const family = sound.category === 'SFX' || sound.category === 'AMBIENT' ? `${sound.category.toLowerCase()} ${sound.tags[0]}` : sound.category.toLowerCase();
    sounds.push({ name: sound.name, family, descriptors: measurements.descriptors! });
  }
  return sounds;
}

async function realSounds(folder: string): Promise<Labelled[]> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'sound-catalog-precision-'));
  const sounds: Labelled[] = [];
  try {
    for (const file of (await readdir(folder)).filter((name) => /\.(flac|wav|mp3|ogg)$/.test(name)).sort()) {
      const name = file.replace(/\.\w+$/, '');
      const { measurements } = await measureFile(path.join(folder, file), path.join(scratch, `${name}.mp3`));
      sounds.push({ name, family: REAL_FAMILIES.find(([pattern]) => pattern.test(name))?.[1] ?? null, descriptors: measurements.descriptors! });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return sounds;
}

/** Precision at 5 of `asked` (each with a family) among the sounds of `catalog`. */
function report(title: string, asked: Labelled[], catalog: Labelled[]): void {
  const index = new SimilarityIndex();
  catalog.forEach((sound, doc) => index.set(doc, sound.descriptors));
  const perFamily = new Map<string, { hits: number; total: number; sounds: number }>();
  for (const sound of asked) {
    if (sound.family === null) continue;
    const doc = catalog.indexOf(sound);
    const nearest = index.nearest(doc, 5);
    const entry = perFamily.get(sound.family) ?? { hits: 0, total: 0, sounds: 0 };
    entry.hits += nearest.filter(({ doc: other }) => catalog[other]!.family === sound.family).length;
    entry.total += nearest.length;
    entry.sounds++;
    perFamily.set(sound.family, entry);
  }
  const all = [...perFamily.values()].reduce((sum, entry) => ({ hits: sum.hits + entry.hits, total: sum.total + entry.total }), { hits: 0, total: 0 });
  console.log(`\n${title}: precision at 5 = ${(all.hits / all.total).toFixed(2)} (${all.hits}/${all.total})`);
  console.log('| family | sounds | precision at 5 |\n|---|---|---|');
  for (const [family, entry] of [...perFamily].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`| ${family} | ${entry.sounds} | ${(entry.hits / entry.total).toFixed(2)} |`);
  }
}
