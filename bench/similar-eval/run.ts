/**
 * Precision at 5 of similar sounds, held out honestly (docs/similar-sounds.md):
 *   node --import tsx bench/similar-eval/build.ts /tmp/similar-eval     # once: the recordings
 *   node --import tsx bench/similar-eval/run.ts /tmp/similar-eval [DEMO_COUNT]
 *
 * - Held-out real recordings (data.ts HELD_OUT_SOURCES): every held-out sound is asked for its 5
 *   nearest among the held-out sounds of the other sources (another kit or font: a font's
 *   velocities of one key are nearly one recording, and a catalog's uploaders differ), through the index the service
 *   uses (@sound-catalog/catalog-index's SimilarityIndex) over our descriptors; precision is the share in the
 *   sound's own family. Beside it, the same question answered by a plain nearest-neighbour search over
 *   ffmpeg's spectral statistics (aspectralstats: the mean and deviation over frames of each
 *   statistic, each z-scored over the catalog searched, Euclidean distance).
 * - The training sources, the same way: what the projection was fitted on, for comparison only.
 * - The demo catalog: DEMO_COUNT synthesized sounds (default 600, seed "precision", 0 to skip),
 *   each made into its MP3 and measured as ingest does; a sound's family is its generator.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SimilarityIndex } from '@sound-catalog/catalog-index';
import { DESCRIPTOR_WEIGHTS } from '../../src/audio/analyze/descriptors.ts';
import { analyzeAudio } from '../../src/audio/analyze/index.ts';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { DRUM_FAMILIES, isHeldOut, readRecordings, readWav } from './data.ts';

const folder = process.argv[2] ?? '/tmp/similar-eval';
const demoCount = Number(process.argv[3] ?? 600);
const K = 5;

interface Labelled {
  family: string;
  source: string;
  ours: number[];
  baseline: number[];
}

const recordings = readRecordings(folder);
const baseline = spectralStats(
  folder,
  recordings.map((recording) => recording.file),
);
const labelled = recordings.map((recording, i): Labelled & { heldOut: boolean } => {
  const { sampleRate, samples } = readWav(path.join(folder, recording.file));
  return {
    family: recording.family,
    source: recording.source,
    ours: analyzeAudio({ sampleRate, channels: [samples] }).descriptors!,
    baseline: baseline[i]!,
    heldOut: isHeldOut(recording),
  };
});
const heldOut = labelled.filter((sound) => sound.heldOut);
const training = labelled.filter((sound) => !sound.heldOut);
const sources = (held: boolean) =>
  [
    ...new Set(recordings.filter((recording) => isHeldOut(recording) === held).map((recording) => recording.source)),
  ].join(', ');
console.log(
  `${recordings.length} recordings; held out: ${heldOut.length} ` +
    `(${sources(true)}); training: ${training.length} (${sources(false)})`,
);
table('held-out sources', heldOut, true);
table(
  'held-out drum kits alone (AVL Red Zeppelin and Hydrogen kits, no General MIDI font)',
  heldOut.filter((sound) => /^(avl|hydrogen)-/.test(sound.source)),
  true,
);
// Only FluidR3 among the training sources has pitched families: with no other source to find, they read 0.
table('training sources (fitted on: not a result)', training, true);

if (demoCount > 0) {
  const demo: Labelled[] = [];
  for (let index = 0; index < demoCount; index++) {
    const sound = synthesizeSound('precision', index);
    const { measurements } = await encodeAndMeasure(sound.audio);
    const family =
      sound.category === 'SFX' || sound.category === 'AMBIENT'
        ? `${sound.category.toLowerCase()} ${sound.tags[0]}`
        : sound.category.toLowerCase();
    demo.push({ family, source: `demo ${index}`, ours: measurements.descriptors!, baseline: [] });
  }
  const { hits, total } = precision(demo, (sound) => sound.ours, true).all;
  console.log(
    `\ndemo catalog (${demoCount} synthesized sounds, families = ` +
      `generators): precision at ${K} = ${(hits / total).toFixed(2)}`,
  );
}

function table(title: string, sounds: Labelled[], withBaseline: boolean): void {
  const ours = precision(sounds, (sound) => sound.ours, true);
  const plain = withBaseline ? precision(sounds, (sound) => sound.baseline, false) : null;
  const cell = (entry: { hits: number; total: number } | undefined) =>
    entry && entry.total > 0 ? (entry.hits / entry.total).toFixed(2) : '-';
  console.log(`\n${title}\n| family | sounds | descriptors | ffmpeg spectral statistics |\n|---|---|---|---|`);
  const families = [...ours.families.keys()].sort(
    (a, b) => Number(DRUM_FAMILIES.includes(b)) - Number(DRUM_FAMILIES.includes(a)) || a.localeCompare(b),
  );
  for (const family of families)
    console.log(
      `| ${family} | ${ours.families.get(family)!.sounds} | ` +
        `${cell(ours.families.get(family))} | ${cell(plain?.families.get(family))} |`,
    );
  console.log(`| **drums** | ${ours.drums.sounds} | **${cell(ours.drums)}** | ${cell(plain?.drums)} |`);
  console.log(`| other families | ${ours.others.sounds} | ${cell(ours.others)} | ${cell(plain?.others)} |`);
  console.log(`| all | ${ours.all.sounds} | ${cell(ours.all)} | ${cell(plain?.all)} |`);
}

interface Tally {
  hits: number;
  total: number;
  sounds: number;
}

/**
 * Precision at K of every sound among `sounds`: through the service's index, or (`service`
 * false) by plain Euclidean distance over numbers z-scored over `sounds`.
 */
function precision(sounds: Labelled[], vector: (sound: Labelled) => number[], service: boolean) {
  const nearest = service ? serviceNearest(sounds, sounds.map(vector)) : plainNearest(sounds, sounds.map(vector));
  const families = new Map<string, Tally>();
  const tally = () => ({ hits: 0, total: 0, sounds: 0 });
  const [drums, others, all] = [tally(), tally(), tally()];
  sounds.forEach((sound, i) => {
    const neighbours = nearest(i);
    const hits = neighbours.filter((other) => sounds[other]!.family === sound.family).length;
    const entry = families.get(sound.family) ?? tally();
    families.set(sound.family, entry);
    for (const target of [entry, DRUM_FAMILIES.includes(sound.family) ? drums : others, all]) {
      target.hits += hits;
      target.total += neighbours.length;
      target.sounds++;
    }
  });
  return { families, drums, others, all };
}

function serviceNearest(sounds: Labelled[], vectors: number[][]): (i: number) => number[] {
  const index = new SimilarityIndex(DESCRIPTOR_WEIGHTS);
  vectors.forEach((vector, doc) => index.set(doc, vector));
  // Below 20,000 sounds the index reads every one: asking for all of them is exact search.
  return (i) =>
    index
      .nearest(i, sounds.length)
      .map(({ doc }) => doc)
      .filter((doc) => sounds[doc]!.source !== sounds[i]!.source)
      .slice(0, K);
}

function plainNearest(sounds: Labelled[], vectors: number[][]): (i: number) => number[] {
  const length = vectors[0]!.length;
  const mean = Array.from({ length }, (_, d) => vectors.reduce((sum, vector) => sum + vector[d]!, 0) / vectors.length);
  const deviation = Array.from(
    { length },
    (_, d) => Math.sqrt(vectors.reduce((sum, vector) => sum + (vector[d]! - mean[d]!) ** 2, 0) / vectors.length) || 1,
  );
  const scaled = vectors.map((vector) => vector.map((value, d) => (value - mean[d]!) / deviation[d]!));
  return (i) =>
    scaled
      .map((other, j) => ({
        j,
        distance:
          sounds[j]!.source === sounds[i]!.source
            ? Infinity
            : other.reduce((sum, value, d) => sum + (value - scaled[i]![d]!) ** 2, 0),
      }))
      .sort((a, b) => a.distance - b.distance || a.j - b.j)
      .slice(0, K)
      .map(({ j }) => j);
}

/**
 * ffmpeg's aspectralstats of each file (2048-sample frames, half overlapping): the mean and the
 * deviation over frames of each statistic. Kept in the folder, as they never change.
 */
function spectralStats(folder: string, files: string[]): number[][] {
  const cache = path.join(folder, 'aspectralstats.json');
  const known: Record<string, number[]> = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : {};
  let added = 0;
  for (const file of files) {
    if (known[file]) continue;
    const printed = execFileSync(
      'ffmpeg',
      [
        '-v',
        'error',
        '-i',
        path.join(folder, file),
        '-af',
        'aspectralstats,ametadata=mode=print:file=-',
        '-f',
        'null',
        '-',
      ],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    );
    const perStatistic = new Map<string, number[]>();
    for (const match of printed.matchAll(/^lavfi\.aspectralstats\.1\.(\w+)=(\S+)$/gm)) {
      const value = Number(match[2]);
      if (!Number.isFinite(value)) continue;
      if (!perStatistic.has(match[1]!)) perStatistic.set(match[1]!, []);
      perStatistic.get(match[1]!)!.push(value);
    }
    known[file] = [...perStatistic.keys()].sort().flatMap((name) => {
      const values = perStatistic.get(name)!;
      const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
      return [mean, Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length)];
    });
    if (++added % 200 === 0) writeFileSync(cache, JSON.stringify(known));
  }
  if (added > 0) writeFileSync(cache, JSON.stringify(known));
  return files.map((file) => known[file]!);
}
