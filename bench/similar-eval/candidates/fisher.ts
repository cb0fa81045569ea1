/**
 * Which measures, analyzer's and candidates' (extra.ts), best tell two drum families apart,
 * one loudest recording per instrument or key: (difference of means)² over the sum of variances.
 *   node --import tsx bench/similar-eval/candidates/fisher.ts /tmp/similar-eval [kick:tom,...]
 */
import { MEASURE_NAMES } from '../../../src/audio/analyze/descriptors.ts';
import { measureAll, readRecordings } from '../data.ts';
import { extraMeasuresAll } from './extra.ts';

const folder = process.argv[2]!;
const recordings = readRecordings(folder);
const measures = measureAll(folder, recordings);
const extras = extraMeasuresAll(folder, recordings);
const names = [...MEASURE_NAMES, ...Object.entries(extras[0]!).flatMap(([g, v]) => v.map((_, i) => `${g}${i}`))];
const vec = recordings.map((_, i) => [...measures[i]!, ...Object.values(extras[i]!).flat()]);
const pairs = (process.argv[3] ?? 'kick:tom,snare:rim,snare:clap,rim:clap,crash:ride,hi-hat:ride,crash:hi-hat').split(
  ',',
);
for (const pair of pairs) {
  const [a, b] = pair.split(':');
  const score = names.map((name, d) => {
    const valuesOf = (family: string | undefined) =>
      recordings.flatMap((r, i): number[] => (r.family === family && r.layer === 'loudest' ? [vec[i]![d]!] : []));
    const [va, vb] = [valuesOf(a), valuesOf(b)];
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
