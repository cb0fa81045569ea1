import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BitmapPool } from '../src/bitmap-pool.ts';
import { DurationIndex } from '../src/duration-index.ts';

/**
 * The ranges alone against plain filtering: values drawn from few numbers (so bounds repeat and
 * fall on values) and NaN, some sounds changed or removed after the bounds were chosen, others
 * added after (past the capacity the bounds were chosen for), and ranges with one bound, both, or
 * both in one bucket, each made in a bitmap a query before left full.
 */
const valueArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -20, max: 20 }).map((n) => n / 4) },
  { weight: 1, arbitrary: fc.constant(Number.NaN) },
);
const boundArb = fc.option(
  fc.integer({ min: -22, max: 22 }).map((n) => n / 4),
  { nil: undefined },
);

describe('duration index', () => {
  test('duration-index.reference: within [min, max] is every sound with a value in it, added one by one or all at once, through changes', () => {
    fc.assert(
      fc.property(
        fc.array(valueArb, { minLength: 1, maxLength: 700 }),
        fc.array(fc.tuple(fc.nat(699), valueArb), { maxLength: 60 }),
        fc.array(valueArb, { maxLength: 40 }),
        fc.array(fc.tuple(boundArb, boundArb), { minLength: 5, maxLength: 5 }),
        fc.boolean(),
        (initial, changes, added, ranges, together) => {
          const capacity = initial.length + added.length;
          const values: Array<number | null> = [...initial];
          const index = new DurationIndex();
          const sorted = initial.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
          index.reset(sorted.length, (rank) => sorted[rank]!, together ? initial.length : capacity);
          // A first load adds them all at once (addAll), in any order; else one by one.
          if (together)
            index.addAll(
              initial.map((_, i) => initial.length - 1 - i),
              Float64Array.from(initial),
            );
          else initial.forEach((value, doc) => index.add(doc, value));
          for (const [at, value] of changes) {
            const doc = at % initial.length;
            if (values[doc] === null) continue;
            index.remove(doc, values[doc]!);
            // Every fifth change removes the sound; the others give it a new value.
            if (doc % 5 === 0) values[doc] = null;
            else index.add(doc, (values[doc] = value));
          }
          for (const value of added) {
            index.add(values.length, value);
            values.push(value);
          }
          const pool = new BitmapPool();
          for (const [low, high] of ranges) {
            const min = low ?? -Infinity;
            const max = high ?? (low === undefined ? 5 : Infinity);
            // The catalog has grown since: the pool's bitmaps are longer than the index's.
            pool.reset(capacity + 64);
            for (let i = 0; i < 4; i++) pool.takeUncleared().fill(0xffffffff);
            pool.reset(capacity + 64);
            const set = index.within(min, max, pool);
            const expected = values.flatMap((value, doc) =>
              value !== null && value >= min && value <= max ? [doc] : [],
            );
            const got: number[] = [];
            set.forEach((doc) => got.push(doc));
            assert.deepEqual(got, expected, `[${min}, ${max}]`);
            assert.equal(set.count, expected.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
