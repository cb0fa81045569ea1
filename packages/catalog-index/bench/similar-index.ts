/**
 * The similar-sounds index alone, in process:
 *   node --expose-gc --import tsx bench/similar-index.ts [SIZES...]      (default 100000 1000000)
 * Vectors of as many numbers as a real descriptor (the tests' weights) around 300 centres drawn
 * with Zipf frequencies (as synthetic.ts makes them); 200 queries of limits 5 to 50 from random
 * sounds once the cells are built; recall at 10 against the exact answer for 50 of them; the same
 * after a tenth of the sounds are removed and added again under new positions. Each
 * query's time is given as wall time and as this process's CPU time: on a shared machine the wall
 * time of a millisecond's work moves with other work, its CPU time much less. The index's memory
 * is what it added to the heap and outside it (array buffers, WebAssembly memory), with
 * --expose-gc, after a collection.
 */
import { SimilarityIndex } from '../src/similar.ts';
import type { VectorRows } from '../src/vector-rows.ts';
import { WEIGHTS } from '../test/helpers/vectors.ts';
import { generator } from './synthetic.ts';

const D = WEIGHTS.length;

const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heldMb = () => {
  collect();
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.external) / 2 ** 20;
};
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
for (const n of sizes.length > 0 ? sizes : [100_000, 1_000_000]) {
  const random = generator(3);
  const centres = Array.from({ length: 300 }, () => Array.from({ length: D }, () => (random.next() - 0.5) * 6));
  const before = heldMb();
  const index = new SimilarityIndex(WEIGHTS);
  index.reserveFor(n);
  for (let i = 0; i < n; i++)
    index.set(
      i,
      random.zipf(centres).map((v) => v + (random.next() + random.next() + random.next() - 1.5) * 2),
    );
  const exhaustive: number[] = [];
  for (let q = 0; q < 20; q++) {
    const started = performance.now();
    index.nearest(Math.floor(random.next() * n), 10); // the first starts the build of the cells
    exhaustive.push(performance.now() - started);
  }
  const building = performance.now();
  const buildingCpu = cpuMs();
  const internals = index as unknown as { building: object | null };
  while (internals.building) await new Promise((resolve) => setImmediate(resolve));
  const buildMs = performance.now() - building;
  const buildCpuMs = cpuMs() - buildingCpu;
  const indexMb = heldMb() - before;
  const rows = (index as unknown as { rows: VectorRows }).rows;
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
  const p99 = (values: number[]) => sorted(values)[Math.floor(values.length * 0.99)]!;
  /** 200 queries from `asked`, among the sounds listed; recall at 10 against the exact answer for the first 100. */
  const measure = (docs: number[], asked: number[]) => {
    const exact = (doc: number) => {
      const distances: Array<[number, number]> = [];
      const at = rows.slotOf[doc]!;
      for (const other of docs) {
        if (other === doc) continue;
        distances.push([rows.distance(rows.slotOf[other]!, at), other]);
      }
      return distances
        .sort((a, b) => a[0] - b[0] || a[1] - b[1])
        .slice(0, 10)
        .map(([, doc]) => doc);
    };
    const times: number[] = [];
    const cpuTimes: number[] = [];
    let found = 0;
    for (let q = 0; q < 200; q++) {
      const doc = asked[q]!;
      const limit = random.pick([5, 10, 20, 50]);
      const startedCpu = cpuMs();
      const started = performance.now();
      index.nearest(doc, limit);
      times.push(performance.now() - started);
      cpuTimes.push(cpuMs() - startedCpu);
      if (q < 100) {
        const truth = new Set(exact(doc));
        found += index.nearest(doc, 10).filter((neighbour) => truth.has(neighbour.doc)).length;
      }
    }
    return {
      cellsMedianMs: Number(median(times).toFixed(2)),
      cellsP99Ms: Number(p99(times).toFixed(2)),
      cpuMedianMs: Number(median(cpuTimes).toFixed(2)),
      cpuP99Ms: Number(p99(cpuTimes).toFixed(2)),
      recallAt10: Number((found / 1000).toFixed(3)),
    };
  };
  const listed = Array.from({ length: n }, (_, doc) => doc);
  // The same 200 queries before and after the churn, from sounds it leaves where they are.
  const moved = listed.filter(() => random.next() < 0.1);
  const gone = new Set(moved);
  const asked = Array.from({ length: 200 }, () => {
    for (;;) {
      const doc = Math.floor(random.next() * n);
      if (!gone.has(doc)) return doc;
    }
  });
  const fresh = measure(listed, asked);
  // Churn: a tenth of the sounds removed, then added again under new positions (as a sound deleted
  // and ingested again is), and the index asked again once any rebuild it started is done.
  const vectorOf = (doc: number) => Array.from({ length: D }, (_, i) => rows.value(doc, i));
  const saved = moved.map(vectorOf);
  for (const doc of moved) index.set(doc, null);
  moved.forEach((_, k) => index.set(n + k, saved[k]!));
  index.nearest(0, 10);
  while (internals.building) await new Promise((resolve) => setImmediate(resolve));
  const afterChurn = measure([...listed.filter((doc) => !gone.has(doc)), ...moved.map((_, k) => n + k)], asked);
  console.log(
    JSON.stringify({
      sounds: n,
      everySoundReadMs: Number(median(exhaustive).toFixed(2)),
      cellsListedMs: Math.round(buildMs),
      cellsListedCpuMs: Math.round(buildCpuMs),
      indexMb: Math.round(indexMb),
      ...fresh,
      afterChurn: { moved: moved.length, ...afterChurn },
    }),
  );
}
