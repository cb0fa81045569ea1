import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { countBoth } from '../src/posting.ts';

test('posting.count-both: bits set in both bitmaps, over the shorter one, two words a step or one', () => {
  const bitmap = fc
    .array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 9 })
    .map((words) => Uint32Array.from(words));
  fc.assert(
    fc.property(bitmap, bitmap, (a, b) => {
      let expected = 0;
      for (let word = 0; word < Math.min(a.length, b.length); word++)
        for (let bit = 0; bit < 32; bit++) expected += (a[word]! >>> bit) & (b[word]! >>> bit) & 1;
      assert.equal(countBoth(a, b), expected);
    }),
    { numRuns: 2000 },
  );
  // Every bit set: 16 a byte before the sum, the most the per-byte counts hold.
  assert.equal(countBoth(new Uint32Array(5).fill(2 ** 32 - 1), new Uint32Array(7).fill(2 ** 32 - 1)), 160);
});
