import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import fc from 'fast-check';
import { wasmFromWat } from '../scripts/wasm-from-wat.js';
import { BitCounter, countBits } from '../src/bit-counter.ts';

/** Bits set in both, over the shorter bitmap, counted bit by bit. */
function common(a: Uint32Array, b: Uint32Array): number {
  let count = 0;
  for (let word = 0; word < Math.min(a.length, b.length); word++)
    for (let bit = 0; bit < 32; bit++) count += (a[word]! >>> bit) & (b[word]! >>> bit) & 1;
  return count;
}

const bitmap = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constant(0), fc.constant(2 ** 32 - 1)), {
    maxLength: 300,
  })
  .map((words) => Uint32Array.from(words));
/** Ascending positions, some past the bitmaps above. */
const list = fc
  .uniqueArray(fc.integer({ min: 0, max: 32 * 320 }), { maxLength: 400 })
  .map((ids) => Uint32Array.from(ids).sort());

test('bit-counter.count: bitmaps and sorted lists counted against one bitmap, in turn', () => {
  const counter = new BitCounter();
  const set = fc.oneof(
    bitmap.map((bits) => ({ bits })),
    list.map((ids) => ({ ids })),
  );
  fc.assert(
    fc.property(bitmap, fc.array(set, { minLength: 1, maxLength: 4 }), (found, sets) => {
      counter.against(found);
      for (const set of sets) {
        if ('bits' in set) assert.equal(counter.countBitmap(set.bits), common(found, set.bits));
        else
          assert.equal(counter.countList(set.ids), set.ids.filter((id) => (found[id >>> 5]! >>> (id & 31)) & 1).length);
      }
    }),
    { numRuns: 1000 },
  );
});

test('bit-counter.ones: the bits of one bitmap, counted between counts against another', () => {
  const counter = new BitCounter();
  fc.assert(
    fc.property(bitmap, bitmap, (found, other) => {
      const ones = new Uint32Array(found.length).fill(2 ** 32 - 1);
      assert.equal(countBits(found), common(found, ones));
      counter.against(found);
      assert.equal(counter.countOnes(other), common(other, new Uint32Array(other.length).fill(2 ** 32 - 1)));
      counter.against(found);
      assert.equal(counter.countBitmap(other), common(found, other));
    }),
    { numRuns: 500 },
  );
});

test('bit-counter.full: every bit set, past a run of byte sums and past the first page of memory', () => {
  const counter = new BitCounter();
  // 31 steps of 128 bits fill a byte's sum to 248; 40,000 words need more than one 64 KiB page.
  for (const words of [124, 125, 128, 40_000]) {
    const full = new Uint32Array(words).fill(2 ** 32 - 1);
    counter.against(full);
    assert.equal(counter.countBitmap(full), 32 * words);
    assert.equal(counter.countBitmap(full.subarray(0, words - 1)), 32 * (words - 1));
  }
  // A shorter bitmap after a longer one: what the longer left in memory is not counted.
  counter.against(new Uint32Array(3).fill(1));
  assert.equal(counter.countBitmap(new Uint32Array(40_000).fill(1)), 3);
  // A list longer than the room after the bitmap: the memory grows.
  counter.against(new Uint32Array(40_000).fill(2 ** 32 - 1));
  assert.equal(counter.countList(Uint32Array.from({ length: 100_000 }, (_, i) => 3 * i)), 100_000);
});

test('bit-counter.wasm: the committed kernel is the one bit-count.wat describes', async () => {
  const built = await wasmFromWat(await readFile(new URL('../src/bit-count.wat', import.meta.url), 'utf8'));
  const committed = await readFile(new URL('../src/bit-count.wasm', import.meta.url));
  assert.ok(built.equals(committed), 'bit-count.wasm is out of date: npm run build:wasm');
});
