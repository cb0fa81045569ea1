import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { FloatRows } from '../src/float-rows.ts';
import { scaledCount, VectorRows } from '../src/vector-rows.ts';
import { wasmFromWat } from '../scripts/wasm-from-wat.js';
import { seededRandom as random } from './helpers/vectors.ts';

const source = new URL('../src/distance.wat', import.meta.url);

/** Unscaled numbers: every root 1. */
const ones = (dimensions: number) => new Float64Array(dimensions).fill(1);

/** Puts a row for `doc`, checking that each number is held to within half its step. */
function put(rows: VectorRows, doc: number, vector: number[]): void {
  rows.put(doc, vector);
  vector.forEach((value, i) =>
    assert.ok(Math.abs(rows.value(doc, i) - value) <= rows.fineStep[i]! / 2, `number ${i} of ${doc} held`),
  );
}

/**
 * The first pass's squared distance as vector-rows.ts defines it: each number's count of steps
 * times its factor (its step times its root, in units, as a fraction of 32,768, at most 32,767),
 * rounded; differences held to ±limit.
 */
function firstPass(rows: VectorRows, roots: Float64Array, unit: number, a: number, b: number): number {
  let sum = 0;
  for (let j = 0; j < rows.dimensions; j++) {
    const step = rows.fineStep[j]!;
    const factor = Math.min(32_767, Math.round((step * roots[j]! * 32_768) / unit));
    const scaled = (doc: number) =>
      step === 0 ? 0 : scaledCount(Math.round((rows.value(doc, j) - rows.origin[j]!) / step), factor);
    const difference = Math.max(-rows.limit, Math.min(rows.limit, scaled(a) - scaled(b)));
    sum += difference * difference;
  }
  return sum;
}

describe('vector rows', () => {
  test('rows.wasm: the committed kernel is the one distance.wat describes', async () => {
    const built = await wasmFromWat(await readFile(source, 'utf8'));
    const committed = await readFile(new URL('../src/distance.wasm', import.meta.url));
    assert.ok(built.equals(committed), 'distance.wasm is out of date: npm run build:wasm');
  });

  test(
    'rows.scan: first-pass distances agree with a plain sum, for any ' +
      'row length, extreme numbers and more rows than a call takes',
    () => {
      for (const dimensions of [1, 5, 16, 17, 106, 300]) {
        const next = random(dimensions);
        const rows = new VectorRows(dimensions);
        const roots = Float64Array.from({ length: dimensions }, () => 0.2 + 2 * next());
        const unit = 0.05;
        rows.setScale(roots, unit);
        const count = dimensions === 106 ? 9000 : 700;
        const vectors: number[][] = [];
        for (let doc = 0; doc < count; doc++) {
          // Some numbers far out, both ways: their differences held to ±limit, some factors at their largest.
          vectors.push(
            Array.from({ length: dimensions }, () =>
              next() < 0.05 ? (next() < 0.5 ? -1000 : 1000) : (next() - 0.5) * 120,
            ),
          );
          put(rows, doc, vectors[doc]!);
        }
        const docs = Array.from({ length: count }, (_, i) => (i * 7919) % count);
        const target = 3;
        const found = rows.scan(
          Int32Array.from(docs, (doc) => rows.slotOf[doc]!),
          rows.slotOf[target]!,
        );
        for (let i = 0; i < count; i++)
          assert.equal(
            found[i],
            firstPass(rows, roots, unit, docs[i]!, target),
            `row ${docs[i]} of ${dimensions} numbers`,
          );
      }
    },
  );

  test('rows.slots: added, changed, swapped and removed rows ' + 'keep their numbers together, through growth', () => {
    const next = random(11);
    const dimensions = 20;
    const rows = new VectorRows(dimensions);
    rows.setScale(ones(dimensions), 0.1);
    const model = new Map<number, number[]>();
    for (let round = 0; round < 6000; round++) {
      const doc = Math.floor(next() * 3000);
      const action = next();
      if (action < 0.6) {
        const vector = Array.from({ length: dimensions }, () => Math.round((next() - 0.5) * 200) / 10);
        put(rows, doc, vector);
        model.set(doc, vector);
      } else if (action < 0.8 && rows.has(doc)) {
        rows.remove(doc);
        model.delete(doc);
      } else if (rows.size > 0) {
        const other = rows.docs[Math.floor(next() * rows.size)]!;
        rows.swapSlots(rows.slotOf[other]!, Math.floor(next() * rows.size));
      }
    }
    assert.equal(rows.size, model.size);
    assert.deepEqual(new Set(rows.docs), new Set(model.keys()));
    const docs = [...model.keys()];
    const target = docs[0]!;
    const found = rows.scan(
      Int32Array.from(docs, (doc) => rows.slotOf[doc]!),
      rows.slotOf[target]!,
    );
    const held = (doc: number) => Array.from({ length: dimensions }, (_, j) => rows.value(doc, j));
    const sums = new Float64Array(dimensions);
    docs.forEach((doc, i) => {
      const vector = model.get(doc)!;
      const numbers = held(doc);
      numbers.forEach((value, j) => {
        // Within a step: half a step when put, and less than half again through every coarsening since.
        assert.ok(Math.abs(value - vector[j]!) < rows.fineStep[j]!, `numbers of ${doc} moved with it`);
        sums[j] = sums[j]! + value;
      });
      assert.equal(found[i], firstPass(rows, ones(dimensions), 0.1, doc, target), `row of ${doc} moved with it`);
      const distance = numbers.reduce((sum, value, j) => sum + (value - held(target)[j]!) ** 2, 0);
      assert.ok(Math.abs(rows.distance(rows.slotOf[doc]!, rows.slotOf[target]!) - distance) <= 1e-9 * (1 + distance));
    });
    // The running sums are those of the numbers held, through every change.
    sums.forEach((sum, j) => assert.ok(Math.abs(rows.sums[j]! - sum) <= 1e-6, `sum of number ${j}`));
  });

  test(
    'rows.floats: centroid distances agree with a plain sum, for any row ' +
      'length, rows appended past the room asked for and runs from anywhere',
    () => {
      for (const dimensions of [1, 3, 4, 5, 16, 106, 300]) {
        const next = random(100 + dimensions);
        // Room for 10 rows; 700 are appended, a few at a time, so the rows move as the room grows.
        const rows = new FloatRows(dimensions, 10);
        const vectors: number[][] = [];
        while (vectors.length < 700) {
          const batch = Array.from({ length: Math.min(1 + Math.floor(next() * 40), 700 - vectors.length) }, () =>
            Array.from({ length: dimensions }, () => (next() - 0.5) * 20),
          );
          assert.equal(rows.append(Float32Array.from(batch.flat())), vectors.length);
          vectors.push(...batch);
        }
        assert.equal(rows.size, 700);
        const source = Float32Array.from({ length: dimensions + 7 }, () => (next() - 0.5) * 20);
        rows.setTarget(source, 7);
        const target = Array.from(source.subarray(7));
        for (const [first, count] of [
          [0, 700],
          [0, 1],
          [333, 50],
          [699, 1],
          [5, 0],
        ] as const) {
          rows.measure(first, count);
          for (let row = first; row < first + count; row++) {
            const expected = vectors[row]!.reduce((sum, value, j) => sum + (Math.fround(value) - target[j]!) ** 2, 0);
            assert.ok(
              Math.abs(rows.distances[row]! - expected) <= 1e-5 * expected + 1e-6,
              `row ${row} of ${dimensions} numbers: ${rows.distances[row]} against ${expected}`,
            );
          }
        }
        assert.throws(() => rows.measure(650, 51), RangeError);
      }
    },
  );
});
