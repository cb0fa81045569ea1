/**
 * Tries candidate measures (extra.ts) under the evaluation's rule before they are worth building
 * into the analyzer (docs/similar-sounds.md, issue 41):
 *   node --import tsx bench/similar-eval/candidates/explore.ts /tmp/similar-eval VARIANT...
 * A VARIANT is `none` or a comma-separated list of: extra.ts groups (added to the measures, to
 * the learned projection's input and, each weighing 1 like a measure group, to the distance);
 * `-gN` to give measure group N (descriptors.ts GROUPS, in order) no say in the distance; `-GN`
 * to leave it out altogether; `+group` for a group in the distance only; `noise1`..`noise4`, twelve random numbers, the control that says
 * how far a group carrying nothing moves the figures. For each variant: the drum precision at 5
 * of each source fitted without its group (as run.ts), mean and worst, and by family. SAY sets
 * the axes' say (descriptors.ts AXES_SAY), EW the extra groups' weight; DUMP=SOURCE lists that
 * source's drums and their neighbours. AUG=FOLDER (augment.ts) adds the copies of the training
 * sources' recordings through other recording chains to each fit; AUG_CHAINS=thin,dark,... only
 * those chains' copies. HUB_K and SNN_K re-rank each query's neighbours (`reranker`, below).
 * POST=say adds each family's posterior under the fitted axes (POST_T its temperature, POST_AXES
 * the axes it reads) to the distance.
 */
import { SimilarityIndex } from '@sound-catalog/catalog-index';
import {
  asDirection,
  describeMeasures,
  descriptorWeights,
  MEASURE_NAMES,
} from '../../../src/audio/analyze/descriptors.ts';
import { learn } from '../discriminant.ts';
import { DRUM_FAMILIES, groupOf, measureAll, readRecordings } from '../data.ts';
import { extraMeasuresAll } from './extra.ts';

const folder = process.argv[2]!;
const variants = process.argv.slice(3).map((v) => (v === 'none' ? [] : v.split(',')));
const recordings = readRecordings(folder);
const measures = measureAll(folder, recordings);
const extras = extraMeasuresAll(folder, recordings);
const augFolder = process.env.AUG;
const augChains = (process.env.AUG_CHAINS ?? '').split(',').filter(Boolean);
const augRecordings = augFolder
  ? readRecordings(augFolder).filter((r) => augChains.length === 0 || augChains.some((c) => r.file.startsWith(`${c}-`)))
  : [];
const augMeasures = augFolder ? measureAll(augFolder, augRecordings) : [];
for (const [i, e] of extras.entries())
  for (let seed = 1; seed <= 4; seed++) {
    let h = (i + 1) * 2654435761 + seed * 97;
    (e as Record<string, number[]>)[`noise${seed}`] = Array.from({ length: 12 }, () => {
      h = (h * 1103515245 + 12345) % 2147483648;
      return h / 2147483648;
    });
  }
const evaluated = recordings.map((_, i) => i).filter((i) => recordings[i]!.layer === 'loudest');
const pool = evaluated.map((i) => recordings[i]!);
const isDrum = (i: number) => DRUM_FAMILIES.includes(pool[i]!.family);
const searchable = (i: number, j: number) =>
  pool[j]!.source === pool[i]!.source || groupOf(pool[j]!.source) !== groupOf(pool[i]!.source);

for (const names of variants) {
  const useBase = !names.includes('-base');
  const groups = names.filter((n) => !n.startsWith('-')).map((n) => n.replace(/^\+/, ''));
  // `+group`: in the distance only, not in the projection's input.
  const learned = names.filter((n) => !n.startsWith('-') && !n.startsWith('+'));
  if (augFolder && learned.length > 0) throw new Error('AUG copies carry no extra.ts groups: use +group');
  // The sizes of descriptors.ts GROUPS, in order.
  const SIZES = [10, 12, 6, 12, 6, 6, 5, 6, 30, 2, 6];
  const groupOfMeasure = SIZES.flatMap((n, g) => new Array(n).fill(g));
  const dropDist = new Set(names.filter((n) => n.startsWith('-g')).map((n) => Number(n.slice(2))));
  const dropAll = new Set(names.filter((n) => n.startsWith('-G')).map((n) => Number(n.slice(2))));
  const keep = MEASURE_NAMES.map((_, k) => k).filter((k) => !dropAll.has(groupOfMeasure[k]));
  const vec = (i: number) => [...keep.map((k) => measures[i]![k]!), ...learned.flatMap((g) => extras[i]![g]!)];
  const all = recordings.map((_, i) => vec(i));
  const ours: number[][] = [];
  for (const group of new Set(pool.map((r) => groupOf(r.source)))) {
    const fitted = recordings.map((_, i) => i).filter((i) => groupOf(recordings[i]!.source) !== group);
    const augFitted = augRecordings.map((_, i) => i).filter((i) => groupOf(augRecordings[i]!.source) !== group);
    const augVec = (i: number) => keep.map((k) => augMeasures[i]![k]!);
    const projection = learn(
      [...fitted.map((i) => all[i]!), ...augFitted.map(augVec)],
      [...fitted.map((i) => recordings[i]!.family), ...augFitted.map((i) => augRecordings[i]!.family)],
      32,
    );
    const baseW = descriptorWeights({ ...projection, spread: [] }).slice(0);
    const weights = [
      ...projection.spread.map((v) => Number(process.env.SAY ?? 0.3) * v),
      ...(useBase ? baseW : baseW.map(() => 0)).map((w, k) =>
        dropDist.has(groupOfMeasure[k]) || dropAll.has(groupOfMeasure[k]) ? 0 : w,
      ),
      ...groups.flatMap((g) => extras[0]![g]!.map(() => Number(process.env.EW ?? 1) / extras[0]![g]!.length)),
    ];
    const axesOf = (i: number) =>
      projection.axes.map((axis) =>
        axis.reduce((s, w, k) => s + (w * (all[i]![k]! - projection.mean[k]!)) / projection.scale[k]!, 0),
      );
    // POST=say: each family's posterior (equal priors, unit spread along the axes, temperature POST_T)
    // as extra numbers, their square roots (a Hellinger distance), weighing `say` each.
    const postSay = Number(process.env.POST ?? 0);
    const postT = Number(process.env.POST_T ?? 1);
    const postAxes = Number(process.env.POST_AXES ?? 13);
    const familyNames = [...new Set(fitted.map((i) => recordings[i]!.family))].sort();
    const centres = familyNames.map((f) => {
      const members = fitted.filter((i) => recordings[i]!.family === f).map(axesOf);
      return members[0]!.map((_, d) => members.reduce((s, m) => s + m[d]!, 0) / members.length).slice(0, postAxes);
    });
    const posterior = (z: number[]) => {
      const e = centres.map((c) => -c.reduce((s, v, d) => s + (z[d]! - v) ** 2, 0) / (2 * postT));
      const top = Math.max(...e);
      const w = e.map((v) => Math.exp(v - top));
      const sum = w.reduce((a, b) => a + b, 0);
      return w.map((v) => Math.sqrt(v / sum));
    };
    if (postSay > 0) weights.push(...familyNames.map(() => postSay));
    const vectors = evaluated.map((i) => {
      const d = describeMeasures(measures[i]!, { ...projection, axes: [] } as never);
      const axes = asDirection(axesOf(i), projection.spread);
      return [...axes, ...d, ...groups.flatMap((g) => extras[i]![g]!), ...(postSay > 0 ? posterior(axes) : [])];
    });
    const index = new SimilarityIndex(weights);
    vectors.forEach((v, doc) => index.set(doc, v));
    const nearestOf = (i: number) => index.nearest(i, vectors.length).filter(({ doc }) => doc !== i);
    const rerank = reranker(vectors.length, nearestOf);
    pool.forEach((r, i) => {
      if (groupOf(r.source) !== group) return;
      const found = rerank(
        i,
        nearestOf(i).filter(({ doc }) => searchable(i, doc)),
      );
      ours[i] = found.map(({ doc }) => doc).slice(0, 5);
    });
  }
  const prec = (members: number[]) =>
    members.reduce((s, i) => s + ours[i]!.filter((o) => pool[o]!.family === pool[i]!.family).length, 0) /
    (5 * members.length);
  const perSource: Array<[string, number]> = [];
  for (const source of new Set(pool.map((r) => r.source))) {
    const drums = pool.map((_, i) => i).filter((i) => pool[i]!.source === source && isDrum(i));
    if (drums.length >= 5) perSource.push([source.replace('hydrogen-', '').slice(0, 10), prec(drums)]);
  }
  if (process.env.DUMP)
    pool.forEach((r, i) => {
      if (!r.source.includes(process.env.DUMP!) || !isDrum(i)) return;
      const hits = ours[i]!.filter((o) => pool[o]!.family === r.family).length;
      console.log(
        `  ${r.file} ${r.family} ${hits}/5: ` +
          ours[i]!.map((o) => `${pool[o]!.family}@${pool[o]!.source.replace('hydrogen-', '').slice(0, 8)}`).join(' '),
      );
    });
  const mean = perSource.reduce((s, [, v]) => s + v, 0) / perSource.length;
  const worst = perSource.reduce((a, b) => (b[1] < a[1] ? b : a));
  const fam = DRUM_FAMILIES.map(
    (f) => `${f} ${prec(pool.map((_, i) => i).filter((i) => pool[i]!.family === f)).toFixed(2)}`,
  );
  const pitched = prec(pool.map((_, i) => i).filter((i) => !isDrum(i)));
  console.log(
    `${names.join(',') || 'none'}: mean ${mean.toFixed(3)} worst ${worst[1].toFixed(2)} (${worst[0]}) pitched ${pitched.toFixed(3)}\n  ` +
      perSource.map(([s, v]) => `${s} ${v.toFixed(2)}`).join(' | ') +
      `\n  ${fam.join(' ')}`,
  );
}

/**
 * Re-ranking by the catalog's neighbourhoods, from no labels (off unless set): HUB_K=k, each
 * candidate's similarity less HUB_SAY (0.5) times its mean similarity to its k nearest (local
 * scaling, against hubs); SNN_K=k, candidates by how many of their k nearest they share with the
 * query, then by similarity (shared nearest neighbours).
 */
function reranker(
  size: number,
  nearestOf: (i: number) => Array<{ doc: number; similarity: number }>,
): (i: number, found: Array<{ doc: number; similarity: number }>) => Array<{ doc: number; similarity: number }> {
  const hubK = Number(process.env.HUB_K ?? 0);
  const hubSay = Number(process.env.HUB_SAY ?? 0.5);
  const snnK = Number(process.env.SNN_K ?? 0);
  const nearest = hubK > 0 || snnK > 0 ? Array.from({ length: size }, (_, j) => nearestOf(j)) : [];
  const crowding = nearest.map(
    (list) => list.slice(0, hubK).reduce((sum, { similarity }) => sum + similarity, 0) / hubK,
  );
  const near = nearest.map((list) => list.slice(0, snnK).map(({ doc }) => doc));
  return (i, found) => {
    if (hubK > 0)
      found = found.map(({ doc, similarity }) => ({ doc, similarity: similarity - hubSay * crowding[doc]! }));
    if (snnK > 0) {
      const mine = new Set(near[i]!);
      const shared = (doc: number) => near[doc]!.filter((other) => mine.has(other)).length;
      found = found.map(({ doc, similarity }) => ({ doc, similarity: shared(doc) + similarity }));
    }
    return hubK > 0 || snnK > 0 ? found.sort((a, b) => b.similarity - a.similarity) : found;
  };
}
