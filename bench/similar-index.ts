/**
 * The similar-sounds index alone, in process:  node --import tsx bench/similar-index.ts [SIZES...]
 * (default 100000 1000000). Vectors of DESCRIPTOR_LENGTH numbers around 300 centres drawn with
 * Zipf frequencies (as bench/fill-catalog.ts makes them); 200 queries of limits 5 to 50 from
 * random sounds once the cells are built; recall at 10 against the exact answer for 50 of them.
 */
import { DESCRIPTOR_LENGTH as D } from '../src/audio/analyze/descriptors.ts';
import { SimilarityIndex } from '../src/catalog/index/similar.ts';
import { generator } from './query-mix.ts';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const n of sizes.length > 0 ? sizes : [100_000, 1_000_000]) {
  const random = generator(3);
  const centres = Array.from({ length: 300 }, () => Array.from({ length: D }, () => (random.next() - 0.5) * 6));
  const index = new SimilarityIndex();
  for (let i = 0; i < n; i++) index.set(i, random.zipf(centres).map((v) => v + (random.next() + random.next() + random.next() - 1.5) * 2));
  const exhaustive: number[] = [];
  for (let q = 0; q < 20; q++) {
    const started = performance.now();
    index.nearest(Math.floor(random.next() * n), 10); // the first starts the build of the cells
    exhaustive.push(performance.now() - started);
  }
  const building = performance.now();
  const internals = index as unknown as { cells: { ready: boolean } | null; scaled: Float32Array };
  while (internals.cells && !internals.cells.ready) await new Promise((resolve) => setImmediate(resolve));
  const buildMs = performance.now() - building;
  const scaled = internals.scaled;
  const exact = (doc: number) => {
    const distances: Array<[number, number]> = [];
    for (let other = 0; other < n; other++) {
      if (other === doc) continue;
      let sum = 0;
      for (let i = 0; i < D; i++) sum += (scaled[other * D + i]! - scaled[doc * D + i]!) ** 2;
      distances.push([sum, other]);
    }
    return distances.sort((a, b) => a[0] - b[0] || a[1] - b[1]).slice(0, 10).map(([, doc]) => doc);
  };
  const times: number[] = [];
  let found = 0;
  for (let q = 0; q < 200; q++) {
    const doc = Math.floor(random.next() * n);
    const started = performance.now();
    const answer = index.nearest(doc, random.pick([5, 10, 20, 50]));
    times.push(performance.now() - started);
    if (q < 50) {
      const truth = new Set(exact(doc));
      found += index.nearest(doc, 10).filter((neighbour) => truth.has(neighbour.doc)).length;
    }
    void answer;
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
  console.log(JSON.stringify({
    sounds: n,
    everySoundReadMs: Number(median(exhaustive).toFixed(2)),
    cellsListedMs: Math.round(buildMs),
    cellsMedianMs: Number(median(times).toFixed(2)),
    cellsP99Ms: Number(sorted(times)[Math.floor(times.length * 0.99)]!.toFixed(2)),
    recallAt10: Number((found / 500).toFixed(3)),
  }));
}
