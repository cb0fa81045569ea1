/**
 * Which measures, analyzer's and candidates' (extra.ts), best tell two drum families apart,
 * one loudest recording per instrument or key: (difference of means)² over the sum of variances.
 *   node --import tsx bench/similar-eval/candidates/fisher.ts /tmp/similar-eval [kick:tom,...]
 * Run explore.ts first: it computes the candidates.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MEASURE_NAMES } from '../../../src/audio/analyze/descriptors.ts';
import { cached, contentKey, measureAll, readRecordings } from '../data.ts';
const folder = process.argv[2]!;
const recordings = readRecordings(folder);
const measures = measureAll(folder, recordings);
const version = createHash('sha1')
  .update(readFileSync(new URL('./extra.ts', import.meta.url)))
  .digest('hex')
  .slice(0, 10);
const { known } = cached(`extra-${version}.json`);
const extras = recordings.map(
  (r) => known[contentKey(path.join(folder, r.file))] as unknown as Record<string, number[]>,
);
const names = [...MEASURE_NAMES, ...Object.entries(extras[0]!).flatMap(([g, v]) => v.map((_, i) => `${g}${i}`))];
const vec = recordings.map((_, i) => [...measures[i]!, ...Object.values(extras[i]!).flat()]);
const pairs = (process.argv[3] ?? 'kick:tom,snare:rim,snare:clap,rim:clap,crash:ride,hi-hat:ride,crash:hi-hat').split(
  ',',
);
for (const pair of pairs) {
  const [a, b] = pair.split(':');
  const score = names.map((name, d) => {
    const va = recordings
      .map((r, i) => (r.family === a && r.layer === 'loudest' ? vec[i]![d]! : NaN))
      .filter((v) => !Number.isNaN(v));
    const vb = recordings
      .map((r, i) => (r.family === b && r.layer === 'loudest' ? vec[i]![d]! : NaN))
      .filter((v) => !Number.isNaN(v));
    const m = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
    const s2 = (v: number[]) => v.reduce((s, x) => s + (x - m(v)) ** 2, 0) / v.length;
    return { name, f: (m(va) - m(vb)) ** 2 / (s2(va) + s2(vb) + 1e-12) };
  });
  score.sort((x, y) => y.f - x.f);
  console.log(
    pair,
    score
      .slice(0, 10)
      .map((s) => `${s.name} ${s.f.toFixed(2)}`)
      .join(', '),
  );
}
