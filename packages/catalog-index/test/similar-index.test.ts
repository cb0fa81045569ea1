import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Cells, type Rows } from '../src/cells.ts';
import { type Neighbour, SimilarityIndex } from '../src/similar.ts';
import { VectorRows } from '../src/vector-rows.ts';
import { seededRandom as random, WEIGHTS } from './helpers/vectors.ts';

const D = WEIGHTS.length;

/** `count` vectors around 200 centres, as sounds of a few hundred kinds would be. */
function clustered(count: number, next: () => number): number[][] {
  const centres = Array.from({ length: 200 }, () => Array.from({ length: D }, () => (next() - 0.5) * 6));
  return Array.from({ length: count }, () =>
    centres[Math.floor(next() * centres.length)]!.map((value) => value + (next() - 0.5) * 3),
  );
}

/** The exact nearest, read off every vector with the index's own scaling (the spread of each number). */
function exactNearest(vectors: Array<number[] | null>, doc: number, limit: number): number[] {
  return exactDistances(vectors, doc)
    .slice(0, limit)
    .map(([, j]) => j);
}

/**
 * How near a distance may be to another for the two to come in either order: the index holds
 * numbers to 16 bits (vector-rows.ts), which moves a distance by up to about 1e-4 of itself.
 */
const HELD = 2e-4;

/**
 * Asserts that `found` is the exact answer: at each rank, a sound as near as the exact one, to
 * within HELD (sounds nearly as near may swap places), and its similarity the exact one's to
 * within the last of its four decimals.
 */
function assertExact(
  found: Neighbour[],
  vectors: Array<number[] | null>,
  doc: number,
  limit: number,
  message = '',
): void {
  const exact = exactDistances(vectors, doc);
  const distanceOf = new Map(exact.map(([distance, j]) => [j, distance]));
  const totalWeight = WEIGHTS.reduce((sum, weight) => sum + weight, 0);
  assert.equal(found.length, Math.min(limit, exact.length), message);
  assert.equal(new Set(found.map((n) => n.doc)).size, found.length, message);
  found.forEach((neighbour, rank) => {
    const expected = exact[rank]![0];
    const distance = distanceOf.get(neighbour.doc);
    assert.ok(
      distance !== undefined && Math.abs(distance - expected) <= HELD * expected,
      `${message} rank ${rank}: sound ${neighbour.doc} at ${distance}, the exact one at ${expected}`,
    );
    const similarity = Math.exp(-expected / (2 * totalWeight));
    assert.ok(Math.abs(neighbour.similarity - similarity) <= 1e-4, `${message} rank ${rank}: similarity`);
  });
}

/** Every other described sound and its distance to `doc`, nearest first (ties: the smaller position). */
function exactDistances(vectors: Array<number[] | null>, doc: number): Array<[number, number]> {
  const live = vectors.flatMap((vector, i) => (vector ? [i] : []));
  const variance = Array.from({ length: D }, (_, i) => {
    const mean = live.reduce((sum, j) => sum + vectors[j]![i]!, 0) / live.length;
    return live.reduce((sum, j) => sum + (vectors[j]![i]! - mean) ** 2, 0) / live.length;
  });
  const distance = (j: number) =>
    vectors[j]!.reduce((sum, value, i) => sum + (WEIGHTS[i]! * (value - vectors[doc]![i]!) ** 2) / variance[i]!, 0);
  return live
    .filter((j) => j !== doc)
    .map((j): [number, number] => [distance(j), j])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** `count` rows of `d` numbers in `data`, each vector at its own slot until the cells move them. */
/** Rows over `data`, position n's at slot n to begin with; `swapped` is told of every swap, as VectorRows tells. */
function rowsOver(
  data: Float32Array,
  d: number,
  count: number,
): Rows & { docAt: Int32Array; swapped: (a: number, b: number) => void } {
  const slotOf = Int32Array.from({ length: count }, (_, doc) => doc);
  const docAt = Int32Array.from(slotOf);
  const rows = {
    slotOf,
    docAt,
    size: count,
    swapped: (_a: number, _b: number) => {},
    readSlot(slot: number, into: Float32Array) {
      into.set(data.subarray(slot * d, slot * d + d));
      return into;
    },
    swapSlots(a: number, b: number) {
      const row = data.slice(b * d, b * d + d);
      data.copyWithin(b * d, a * d, a * d + d);
      data.set(row, a * d);
      const [atA, atB] = [docAt[a]!, docAt[b]!];
      [docAt[a], docAt[b], slotOf[atB], slotOf[atA]] = [atB, atA, a, b];
      rows.swapped(a, b);
    },
  };
  return rows;
}

describe('similar-sounds index', () => {
  test('similar.small: every sound is read; the nearest come first, never the sound itself, and follow changes', () => {
    const next = random(1);
    const vectors: Array<number[] | null> = clustered(2000, next);
    const index = new SimilarityIndex(WEIGHTS);
    vectors.forEach((vector, doc) => index.set(doc, vector));
    // The first pass over codes keeps enough candidates that every answer is the exact one.
    for (let doc = 0; doc < 2000; doc += 40) {
      for (const limit of [1, 5, 50])
        assertExact(index.nearest(doc, limit), vectors, doc, limit, `sound ${doc}, limit ${limit}`);
    }
    const first = index.nearest(5, 10);
    assert.ok(
      first.every(
        (n, i) => n.similarity > 0 && n.similarity <= 1 && (i === 0 || n.similarity <= first[i - 1]!.similarity),
      ),
    );
    // A copy of sound 5 is its nearest, at similarity 1; a cleared sound is gone.
    vectors[2000] = [...vectors[5]!];
    index.set(2000, vectors[2000]);
    assert.deepEqual(index.nearest(5, 1)[0], { doc: 2000, similarity: 1 });
    index.set(2000, null);
    vectors[2000] = null;
    assert.ok(index.nearest(5, 50).every((n) => n.doc !== 2000));
    assertExact(index.nearest(5, 10), vectors, 5, 10);
    assert.deepEqual(index.nearest(2000, 10), [], 'a sound without descriptors has no neighbours');
  });

  test('similar.reserve: room made before a load changes no answer, and sounds beyond it still come in', () => {
    const vectors: Array<number[] | null> = clustered(3000, random(4));
    const grown = new SimilarityIndex(WEIGHTS);
    const reserved = new SimilarityIndex(WEIGHTS);
    reserved.reserveFor(2500);
    for (const index of [grown, reserved]) vectors.forEach((vector, doc) => index.set(doc, vector));
    for (const doc of [0, 1234, 2999]) assert.deepEqual(reserved.nearest(doc, 10), grown.nearest(doc, 10));
    assert.equal(reserved.size, 3000);
    vectors[3000] = [...vectors[1234]!];
    reserved.set(3000, vectors[3000]);
    assert.deepEqual(reserved.nearest(1234, 1)[0], { doc: 3000, similarity: 1 });
    assertExact(reserved.nearest(7, 10), vectors, 7, 10);
  });

  test(
    'similar.large: from 20,000 sounds the cells answer, ' + 'agreeing with the exact nearest, and follow changes',
    async () => {
      const next = random(2);
      const vectors: Array<number[] | null> = clustered(30_000, next);
      const index = new SimilarityIndex(WEIGHTS);
      // A copy of sound 3333, set first so that it is listed last, and cleared while the cells are listed.
      index.set(30_001, [...vectors[3333]!]);
      vectors.forEach((vector, doc) => index.set(doc, vector));
      index.nearest(0, 10); // starts the build of the cells
      index.set(30_001, null);
      for (let waited = 0; !(index as unknown as { cells: { ready: boolean } | null }).cells?.ready; waited++) {
        assert.ok(waited < 10_000, 'the cells are built');
        await new Promise((resolve) => setImmediate(resolve));
      }
      let found = 0;
      const asked = [3, 333, 3333, 13_333, 23_333, 29_999];
      for (const doc of asked) {
        const exact = new Set(exactNearest(vectors, doc, 10));
        found += index.nearest(doc, 10).filter((n) => exact.has(n.doc)).length;
      }
      assert.ok(found / (asked.length * 10) >= 0.95, `recall at 10: ${found}/${asked.length * 10}`);
      assert.ok(
        index.nearest(3333, 20).every((n) => n.doc !== 30_001),
        'a sound cleared during the build is never an answer',
      );
      // Added after the build: listed under its cell at once. Cleared: never answered.
      index.set(30_000, [...vectors[333]!]);
      assert.deepEqual(index.nearest(333, 1)[0], { doc: 30_000, similarity: 1 });
      index.set(30_000, null);
      assert.ok(index.nearest(333, 20).every((n) => n.doc !== 30_000));
      // Changed after the build, staying in its fine cell: answered with its new numbers, not the
      // copy of its row the split made.
      const internals = index as unknown as {
        cells: { cellAt: Int32Array };
        rows: { slotOf: Int32Array; docs: Int32Array };
      };
      const cellOf = (doc: number) => internals.cells.cellAt[internals.rows.slotOf[doc]!];
      const neighbour = internals.rows.docs.find((doc) => doc !== 3 && cellOf(doc) === cellOf(3)) ?? -1;
      assert.ok(neighbour >= 0, "another sound shares sound 3's fine cell");
      const was = [...vectors[3]!];
      index.set(3, [...vectors[neighbour]!]);
      assert.equal(cellOf(3), cellOf(neighbour), 'still in that cell');
      assert.deepEqual(index.nearest(neighbour, 1)[0], { doc: 3, similarity: 1 });
      index.set(30_002, was);
      assert.ok(
        index.nearest(30_002, 10).every((n) => n.doc !== 3 || n.similarity < 1),
        'sound 3 is no longer found where it was',
      );
      index.set(30_002, null);
    },
  );

  test('similar.churn: recall at 10 holds at 0.97 over 100,000 sounds, and after a tenth are removed and added again', async () => {
    const n = 100_000;
    const next = random(11);
    const vectors: Array<number[] | null> = clustered(n, next);
    const index = new SimilarityIndex(WEIGHTS);
    vectors.forEach((vector, doc) => index.set(doc, vector));
    const cellsReady = async () => {
      index.nearest(0, 10);
      const internals = index as unknown as { building: object | null; cells: object | null };
      for (let waited = 0; internals.building !== null || internals.cells === null; waited++) {
        assert.ok(waited < 100_000, 'the cells are built');
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await cellsReady();
    const moved = new Set(Array.from({ length: n }, (_, doc) => doc).filter(() => next() < 0.1));
    const asked = Array.from({ length: 60 }, (_, i) => Math.floor((i * n) / 60)).filter((doc) => !moved.has(doc));
    /** exactNearest's answers for every asked sound, with the scaling measured once. */
    const recall = () => {
      const live = vectors.flatMap((vector, i) => (vector ? [i] : []));
      const scale = Array.from({ length: D }, (_, i) => {
        const mean = live.reduce((sum, j) => sum + vectors[j]![i]!, 0) / live.length;
        return WEIGHTS[i]! / (live.reduce((sum, j) => sum + (vectors[j]![i]! - mean) ** 2, 0) / live.length);
      });
      let found = 0;
      for (const doc of asked) {
        const best: Array<[number, number]> = [];
        for (const j of live) {
          if (j === doc) continue;
          let distance = 0;
          for (let i = 0; i < D; i++) distance += scale[i]! * (vectors[j]![i]! - vectors[doc]![i]!) ** 2;
          if (best.length === 10 && distance >= best[9]![0]) continue;
          best.push([distance, j]);
          best.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          if (best.length > 10) best.pop();
        }
        const exact = new Set(best.map(([, j]) => j));
        found += index.nearest(doc, 10).filter((neighbour) => exact.has(neighbour.doc)).length;
      }
      return found / (asked.length * 10);
    };
    const fresh = recall();
    assert.ok(fresh >= 0.97, `recall at 10 of a fresh index: ${fresh}`);
    // Each moved sound is cleared and comes back at a new position, as a sound deleted and ingested again does.
    let position = n;
    for (const doc of moved) {
      vectors[position] = vectors[doc]!;
      vectors[doc] = null;
      index.set(doc, null);
      index.set(position++, vectors[position - 1]!);
    }
    // The cells built before answer, a tenth of their rows out of place, while new ones are built.
    const internals = index as unknown as { cells: object | null };
    const before = internals.cells;
    const churned = recall();
    assert.ok(churned >= 0.97, `recall at 10 after a tenth moved: ${churned}`);
    assert.equal(internals.cells, before, 'the cells built before answer until new ones are done');
    await cellsReady();
    assert.notEqual(internals.cells, before, 'built again once a tenth of the rows were moved');
    const rebuilt = recall();
    assert.ok(rebuilt >= 0.97, `recall at 10 once built again: ${rebuilt}`);
    // A moved sound is found at its new position, never at its old one.
    const twin = n + 5;
    vectors[position] = [...vectors[twin]!];
    index.set(position, vectors[position]!);
    assert.deepEqual(index.nearest(twin, 1)[0], { doc: position, similarity: 1 });
    assert.ok(index.nearest(twin, 50).every((neighbour) => !moved.has(neighbour.doc)));
  });

  test(
    'similar.cells: vectors of any length added, moved or removed while ' +
      'the cells are split are listed once, where a query near them looks',
    () => {
      const next = random(5);
      const d = 5;
      const count = 20_000;
      const vectors = new Float32Array((count + 1) * d);
      const centres = Array.from({ length: 20 }, () => Array.from({ length: d }, () => (next() - 0.5) * 6));
      for (let doc = 0; doc < count; doc++) {
        const centre = centres[Math.floor(next() * centres.length)]!;
        for (let i = 0; i < d; i++) vectors[doc * d + i] = centre[i]! + (next() - 0.5) * 3;
      }
      const docs = Array.from({ length: count }, (_, doc) => doc);
      const rows = rowsOver(vectors, d, count + 1);
      const cells = new Cells(rows, d, docs, count, next);
      rows.swapped = (a, b) => cells.swapped(a, b);
      // Every vector listed under a coarse cell (1,000 a step), and a few coarse cells split.
      for (let steps = 0; steps < count / 1000 + 3; steps++) assert.equal(cells.step(), false);
      // A new vector, one moved far away and back near where it was, and one removed, while the splits go on.
      vectors.set(vectors.subarray(7 * d, 8 * d), count * d);
      cells.add(count);
      const moved = 11;
      const was = vectors.slice(moved * d, (moved + 1) * d);
      vectors.set(centres[(centres.findIndex((centre) => centre[0] === was[0]) + 1) % centres.length]!, moved * d);
      cells.add(moved);
      vectors.set(was, moved * d);
      cells.add(moved);
      cells.remove(13);
      while (!cells.step());
      const visitFrom = (doc: number) => {
        // A few cells' worth: the nearest fine cell may be one of a neighbouring coarse cell's.
        const slots = cells.gather(rows.readSlot(rows.slotOf[doc]!, new Float32Array(d)), 1000);
        return Array.from(slots, (slot) => rows.docAt[slot]!);
      };
      for (const doc of [0, 7, moved, count, 19_999]) {
        const seen = visitFrom(doc);
        assert.equal(seen.filter((other) => other === doc).length, 1, `vector ${doc} is found near itself, once`);
        assert.equal(new Set(seen).size, seen.length, 'no vector is listed twice');
        assert.ok(!seen.includes(13), 'a removed vector is never visited');
      }
    },
  );
  test('similar.slots: rows added, changed and removed before, during and after a build are each listed once, at their slot', () => {
    const d = 4;
    const op = fc.oneof(
      fc.record({ kind: fc.constant('put' as const), doc: fc.nat(2999), centre: fc.nat(7), seed: fc.nat() }),
      fc.record({ kind: fc.constant('remove' as const), doc: fc.nat(2999) }),
      fc.record({ kind: fc.constant('step' as const), times: fc.integer({ min: 1, max: 4 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.array(op, { maxLength: 100 }), (during, after) => {
        const rows = new VectorRows(d);
        rows.setScale(new Float64Array(d).fill(1), 0.05);
        const vectorFor = (centre: number, seed: number) => {
          const next = random(seed);
          return Array.from({ length: d }, (_, i) => ((centre >> (i % 3)) & 1) * 10 + next());
        };
        const held = new Set<number>();
        for (let doc = 0; doc < 2500; doc++) {
          rows.put(doc, vectorFor(doc % 8, doc));
          held.add(doc);
        }
        // The build lists 1,000 rows a step, then splits a coarse cell a step, then moves 1,000 rows a step.
        const cells = new Cells(rows, d, rows.docs, rows.capacity, random(1));
        rows.swapped = (a, b) => cells.swapped(a, b);
        const apply = (change: (typeof during)[number]) => {
          if (change.kind === 'put') {
            rows.put(change.doc, vectorFor(change.centre, change.seed));
            held.add(change.doc);
            cells.add(change.doc);
          } else if (change.kind === 'remove') {
            if (!held.has(change.doc)) return;
            cells.remove(change.doc);
            rows.remove(change.doc);
            held.delete(change.doc);
          } else {
            for (let n = 0; n < change.times && !cells.ready; n++) cells.step();
          }
        };
        during.forEach(apply);
        while (!cells.step());
        after.forEach(apply);
        const vector = new Float32Array(d);
        // The rows changed, and a tenth of the others.
        const asked = [...held].filter(
          (doc) => doc % 10 === 0 || [...during, ...after].some((c) => 'doc' in c && c.doc === doc),
        );
        for (const doc of asked) {
          const slot = rows.slotOf[doc]!;
          const slots = Array.from(cells.gather(rows.readSlot(slot, vector), rows.size));
          assert.equal(slots.filter((other) => other === slot).length, 1, `row ${doc} is found near itself, once`);
          assert.equal(new Set(slots).size, slots.length, 'no row is met twice');
          assert.ok(
            slots.every((other) => other < rows.size && held.has(rows.docs[other]!)),
            'only rows held',
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});
