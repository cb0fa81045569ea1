/**
 * Precision at 5 of similar sounds, each source left out in turn (docs/similar-sounds.md):
 *   node --import tsx bench/similar-eval/build.ts /tmp/similar-eval     # once: the recordings
 *   node --import tsx bench/similar-eval/run.ts /tmp/similar-eval [DEMO_COUNT]
 *
 * - The sounds evaluated: one recording per instrument or key, its loudest (labels.tsv `layer`),
 *   from every source. They are also the catalog searched.
 * - For each source S: the projection is fitted (scripts/learn-similar-projection.ts) on every
 *   recording, all layers, of the sources not in S's group (data.ts groupOf: sources sharing
 *   recordings or their maker). With that fit every evaluated sound of every source is described,
 *   the service's index (@sound-catalog/catalog-index's SimilarityIndex, exact search) is built
 *   over them, and each sound of S asks for its 5 nearest among all the others, S's own
 *   included, except the other sources of S's group (they hold the same recordings, or the same
 *   maker's: Fluid R3's drum key in MuseScore General, AVL's Black Pearl in Hydrogen). Precision
 *   is the share of those 5 in the sound's own family.
 * - The baseline answers the same questions over the same catalog by plain Euclidean nearest
 *   neighbours over ffmpeg's spectral statistics (aspectralstats: the mean and deviation over
 *   frames of each statistic, each z-scored over the catalog). Nothing in it is fitted.
 * - A source's drum precision is over its drum sounds; the mean and the worst are over the
 *   sources with at least MIN_DRUMS drum sounds, each source counting the same.
 * - The demo catalog: DEMO_COUNT synthesized sounds (default 600, seed "precision", 0 to skip),
 *   each made into its MP3 and measured as ingest does, described with the projection fitted on
 *   every source; a sound's family is its generator.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { SimilarityIndex } from '@sound-catalog/catalog-index';
import {
  DESCRIPTOR_WEIGHTS,
  describeMeasures,
  descriptorWeights,
  MEASURE_NAMES,
  type Projection,
} from '../../src/audio/analyze/descriptors.ts';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { learn } from './discriminant.ts';
import {
  cached,
  contentKey,
  DRUM_FAMILIES,
  groupOf,
  MEASURES_VERSION,
  measureAll,
  type Recording,
  readRecordings,
} from './data.ts';

const folder = process.argv[2] ?? '/tmp/similar-eval';
const demoCount = Number(process.argv[3] ?? 600);
const K = 5;
/** A source with fewer drum sounds is listed but left out of the drum mean and worst. */
const MIN_DRUMS = 5;
/** Axes the projection keeps at most (it keeps one fewer than the families). */
const AXES = 32;

const recordings = readRecordings(folder);
const measures = measureAll(folder, recordings);
const evaluated = recordings.map((_, i) => i).filter((i) => recordings[i]!.layer === 'loudest');
const pool: Recording[] = evaluated.map((i) => recordings[i]!);
const poolMeasures = evaluated.map((i) => measures[i]!);
const baseline = spectralStats(pool.map((recording) => path.join(folder, recording.file)));
const sources = [...new Set(pool.map((recording) => recording.source))];
console.log(
  `${recordings.length} recordings, ${pool.length} evaluated (one layer per instrument or key) ` +
    `from ${sources.length} sources`,
);

type Nearest = (i: number) => number[];
/** Whether sound `j` may answer a query by sound `i`: its own source, or a source outside its group. */
const searchable = (i: number, j: number) =>
  pool[j]!.source === pool[i]!.source || groupOf(pool[j]!.source) !== groupOf(pool[i]!.source);
const plain = plainNearest(baseline);
/** For each evaluated sound, its K nearest by our descriptors (fitted without its source's group). */
const ours: number[][] = new Array(pool.length);
for (const group of new Set(sources.map(groupOf))) {
  const fitted = recordings.map((_, i) => i).filter((i) => groupOf(recordings[i]!.source) !== group);
  const projection = learn(
    fitted.map((i) => measures[i]!),
    fitted.map((i) => recordings[i]!.family),
    AXES,
  );
  const nearest = serviceNearest(
    poolMeasures.map((vector) => describeMeasures(vector, projection)),
    descriptorWeights(projection),
    searchable,
  );
  pool.forEach((recording, i) => {
    if (groupOf(recording.source) === group) ours[i] = nearest(i);
  });
}

interface Tally {
  hits: number;
  total: number;
  sounds: number;
}
const tally = (): Tally => ({ hits: 0, total: 0, sounds: 0 });
const cell = (entry: Tally | undefined) => (entry && entry.total > 0 ? (entry.hits / entry.total).toFixed(2) : '-');
const isDrum = (i: number) => DRUM_FAMILIES.includes(pool[i]!.family);

function score(members: number[], answers: Nearest | number[][]): Tally {
  const result = tally();
  for (const i of members) {
    const neighbours = typeof answers === 'function' ? answers(i) : answers[i]!;
    result.hits += neighbours.filter((other) => pool[other]!.family === pool[i]!.family).length;
    result.total += neighbours.length;
    result.sounds++;
  }
  return result;
}
const plainAnswers = pool.map((_, i) => plain(i));

console.log(
  `\nper source: precision at ${K}, drums and pitched, ours (fitted without the source's group) | ffmpeg\n` +
    '| source | drum sounds | drums ours | drums ffmpeg | pitched sounds | pitched ours | pitched ffmpeg |\n' +
    '|---|---|---|---|---|---|---|',
);
const drumSources: Array<{ source: string; ours: number; plain: number }> = [];
for (const source of sources) {
  const members = pool.map((_, i) => i).filter((i) => pool[i]!.source === source);
  const drums = members.filter(isDrum);
  const pitched = members.filter((i) => !isDrum(i));
  const [drumOurs, drumPlain] = [score(drums, ours), score(drums, plainAnswers)];
  const [pitchedOurs, pitchedPlain] = [score(pitched, ours), score(pitched, plainAnswers)];
  const counted = drums.length >= MIN_DRUMS;
  if (counted) drumSources.push({ source, ours: ratio(drumOurs), plain: ratio(drumPlain) });
  console.log(
    `| ${source}${counted || drums.length === 0 ? '' : ' (too few drums to count)'} | ${drums.length} | ` +
      `${cell(drumOurs)} | ${cell(drumPlain)} | ${pitched.length || '-'} | ${cell(pitchedOurs)} | ${cell(pitchedPlain)} |`,
  );
}
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const worst = (key: 'ours' | 'plain') =>
  drumSources.reduce((low, entry) => (entry[key] < low[key] ? entry : low), drumSources[0]!);
console.log(
  `| **mean over ${drumSources.length} drum sources** | | **${mean(drumSources.map((s) => s.ours)).toFixed(2)}** | ` +
    `${mean(drumSources.map((s) => s.plain)).toFixed(2)} | | | |`,
);
console.log(
  `| **worst drum source** | | **${worst('ours').ours.toFixed(2)}** (${worst('ours').source}) | ` +
    `${worst('plain').plain.toFixed(2)} (${worst('plain').source}) | | | |`,
);

console.log(`\nper family, every evaluated sound once\n| family | sounds | ours | ffmpeg |\n|---|---|---|---|`);
const families = [...new Set(pool.map((recording) => recording.family))].sort(
  (a, b) => (DRUM_FAMILIES.indexOf(a) + 1 || 99) - (DRUM_FAMILIES.indexOf(b) + 1 || 99) || a.localeCompare(b),
);
for (const family of families) {
  const members = pool.map((_, i) => i).filter((i) => pool[i]!.family === family);
  console.log(
    `| ${family} | ${members.length} | ${cell(score(members, ours))} | ${cell(score(members, plainAnswers))} |`,
  );
}
const all = pool.map((_, i) => i);
for (const [name, members] of [
  ['**drums**', all.filter(isDrum)],
  ['pitched', all.filter((i) => !isDrum(i))],
  ['all', all],
] as const)
  console.log(
    `| ${name} | ${members.length} | ${cell(score(members, ours))} | ${cell(score(members, plainAnswers))} |`,
  );

if (demoCount > 0) {
  const everything = learn(
    measures,
    recordings.map((recording) => recording.family),
    AXES,
  );
  const { known, save } = cached(`demo-measures-${MEASURES_VERSION}.json`);
  const demo: Array<{ family: string; measures: number[] }> = [];
  let added = 0;
  for (let index = 0; index < demoCount; index++) {
    const sound = synthesizeSound('precision', index);
    const family =
      sound.category === 'SFX' || sound.category === 'AMBIENT'
        ? `${sound.category.toLowerCase()} ${sound.tags[0]}`
        : sound.category.toLowerCase();
    const hash = createHash('sha1');
    for (const channel of sound.audio.channels)
      hash.update(new Uint8Array(channel.buffer, channel.byteOffset, channel.byteLength));
    const key = hash.digest('hex');
    if (!known[key]) {
      const { measurements } = await encodeAndMeasure(sound.audio);
      // The descriptor ends with the measures themselves (descriptors.ts).
      known[key] = measurements.descriptors!.slice(-MEASURE_NAMES.length);
      added++;
    }
    demo.push({ family, measures: known[key]! });
  }
  if (added > 0) save();
  const demoPrecision = (projection: Projection | null) => {
    const describe = (vector: number[]) =>
      projection ? describeMeasures(vector, projection) : describeMeasures(vector);
    const nearest = serviceNearest(
      demo.map((sound) => describe(sound.measures)),
      projection ? descriptorWeights(projection) : [...DESCRIPTOR_WEIGHTS],
    );
    let hits = 0;
    demo.forEach((sound, i) => {
      hits += nearest(i).filter((other) => demo[other]!.family === sound.family).length;
    });
    return (hits / (demo.length * K)).toFixed(2);
  };
  console.log(
    `\ndemo catalog (${demoCount} synthesized sounds, families = generators): precision at ${K} = ` +
      `${demoPrecision(everything)} with the projection fitted on every source, ` +
      `${demoPrecision(null)} with the shipped one (similar-projection.ts)`,
  );
}

function ratio(entry: Tally): number {
  return entry.total === 0 ? 0 : entry.hits / entry.total;
}

/**
 * The K nearest of each vector among the others (those `allowed`), through the service's index:
 * below 20,000 sounds it reads every one, so asking for all of them is exact search.
 */
function serviceNearest(
  vectors: number[][],
  weights: readonly number[],
  allowed: (i: number, j: number) => boolean = () => true,
): Nearest {
  const index = new SimilarityIndex(weights);
  vectors.forEach((vector, doc) => index.set(doc, vector));
  return (i) =>
    index
      .nearest(i, vectors.length)
      .map(({ doc }) => doc)
      .filter((doc) => allowed(i, doc))
      .slice(0, K);
}

/** The K nearest of each vector among the others, Euclidean over numbers z-scored over all of them. */
function plainNearest(vectors: number[][]): Nearest {
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
          j === i || !searchable(i, j)
            ? Infinity
            : other.reduce((sum, value, d) => sum + (value - scaled[i]![d]!) ** 2, 0),
      }))
      .sort((a, b) => a.distance - b.distance || a.j - b.j)
      .slice(0, K)
      .map(({ j }) => j);
}

/**
 * ffmpeg's aspectralstats of each file (2048-sample frames, half overlapping): the mean and the
 * deviation over frames of each statistic. Cached by content, as they never change.
 */
function spectralStats(files: string[]): number[][] {
  const { known, save } = cached('aspectralstats.json');
  let added = 0;
  const all = files.map((file) => {
    const key = contentKey(file);
    if (known[key]) return known[key]!;
    const printed = execFileSync(
      'ffmpeg',
      ['-v', 'error', '-i', file, '-af', 'aspectralstats,ametadata=mode=print:file=-', '-f', 'null', '-'],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    );
    const perStatistic = new Map<string, number[]>();
    for (const match of printed.matchAll(/^lavfi\.aspectralstats\.1\.(\w+)=(\S+)$/gm)) {
      const value = Number(match[2]);
      if (!Number.isFinite(value)) continue;
      if (!perStatistic.has(match[1]!)) perStatistic.set(match[1]!, []);
      perStatistic.get(match[1]!)!.push(value);
    }
    known[key] = [...perStatistic.keys()].sort().flatMap((name) => {
      const values = perStatistic.get(name)!;
      const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
      return [mean, Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length)];
    });
    if (++added % 200 === 0) save();
    return known[key]!;
  });
  if (added > 0) save();
  return all;
}
