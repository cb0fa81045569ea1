import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import fc from 'fast-check';
import { wasmFromWat } from '../scripts/wasm-from-wat.js';
import { BitmapPool } from '../src/bitmap-pool.ts';

/** The bits set in `bits`, counted bit by bit. */
function ones(bits: Uint32Array): number {
  let count = 0;
  for (const word of bits) for (let bit = 0; bit < 32; bit++) count += (word >>> bit) & 1;
  return count;
}

const word = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constant(0), fc.constant(2 ** 32 - 1));
/** A catalog's capacity in positions, and the words a query's bitmaps are filled from. */
const capacities = fc.integer({ min: 0, max: 2_000 });
const fills = fc.array(word, { minLength: 1, maxLength: 64 });

/**
 * A query's bitmaps: `words` long, as many as `taken` (some past the pool's room, which then come
 * from outside its memory), each filled from `fill`.
 */
function takeFilled(pool: BitmapPool, taken: number, fill: number[]): Uint32Array[] {
  return Array.from({ length: taken }, (_, n) => {
    const bits = pool.takeUncleared();
    for (let i = 0; i < bits.length; i++) bits[i] = fill[(n * 7 + i) % fill.length]!;
    return bits;
  });
}

test('bitmap-pool.passes: count, claim and orAnd as word by word, in and past the room, any length', () => {
  let pool = new BitmapPool();
  fc.assert(
    fc.property(
      capacities,
      fc.integer({ min: 3, max: 20 }),
      fills,
      fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
      fc.boolean(),
      (capacity, taken, fill, picks, fresh) => {
        // A new pool has room for few: the bitmaps past it are plain arrays, done in JavaScript.
        if (fresh) pool = new BitmapPool();
        pool.reset(capacity);
        const bitmaps = takeFilled(pool, taken, fill);
        assert.ok(bitmaps.every((bits) => bits.length === (capacity + 31) >>> 5));
        const [a, b, c] = picks.map((pick) => bitmaps[pick % taken]!) as [Uint32Array, Uint32Array, Uint32Array];
        if (a === b || b === c || a === c) return;
        assert.equal(pool.count(a), ones(a));

        const into = Uint32Array.from(c);
        for (let i = 0; i < into.length; i++) into[i]! |= a[i]! & b[i]!;
        pool.orAnd(c, a, b);
        assert.deepEqual(c, into);

        const kept = a.map((bits, i) => bits & b[i]!);
        const left = b.map((bits, i) => bits & ~a[i]!);
        assert.equal(pool.claim(a, b), ones(kept));
        assert.deepEqual(a, kept);
        assert.deepEqual(b, left);
      },
    ),
    { numRuns: 1000 },
  );
});

test('bitmap-pool.outside: orInto, andInto and andNotInto with a bitmap of any length from outside', () => {
  let pool = new BitmapPool();
  fc.assert(
    fc.property(
      capacities,
      fc.integer({ min: 1, max: 12 }),
      fills,
      fc.array(word, { maxLength: 80 }),
      fc.boolean(),
      (capacity, taken, fill, outside, fresh) => {
        // A new pool has room for few: the copies below then lie past it, done in JavaScript.
        if (fresh) pool = new BitmapPool();
        pool.reset(capacity);
        const bitmaps = takeFilled(pool, taken, fill);
        const other = Uint32Array.from(outside);
        // The last bitmap taken: in the room, or past it when `taken` is more than the room.
        const into = bitmaps[taken - 1]!;
        const wordOf = (i: number) => (i < other.length ? other[i]! : 0);
        const expected = {
          orInto: into.map((bits, i) => bits | wordOf(i)),
          andInto: into.map((bits, i) => bits & wordOf(i)),
          andNotInto: into.map((bits, i) => bits & ~wordOf(i)),
        };
        for (const name of ['orInto', 'andInto', 'andNotInto'] as const) {
          const copy = pool.copyOf(into);
          pool[name](copy, other);
          assert.deepEqual(copy, expected[name], name);
          // A bitmap of the pool's as the other one.
          const again = pool.copyOf(into);
          pool[name](again, pool.copyOf(other));
          assert.deepEqual(again, expected[name], `${name}, the pool's`);
        }
        assert.deepEqual(other, Uint32Array.from(outside));
      },
    ),
    { numRuns: 1000 },
  );
});

test('bitmap-pool.room: a query that takes more than the room makes room for as many in the next', () => {
  const pool = new BitmapPool();
  pool.reset(100_000);
  const first = takeFilled(pool, 30, [1]);
  // Past the room, bitmaps are plain arrays, each with its own memory.
  assert.ok(first[29]!.buffer !== first[0]!.buffer);
  pool.reset(100_000);
  const next = takeFilled(pool, 30, [3]);
  assert.ok(next.every((bits) => bits.buffer === next[0]!.buffer && bits.length === 3125));
  assert.equal(pool.count(next[29]!), 2 * 3125);
  // A larger catalog: the room is laid out again, past the first page of memory.
  pool.reset(3_000_000);
  const large = takeFilled(pool, 30, [2 ** 32 - 1]);
  assert.ok(large.every((bits) => bits.buffer === large[0]!.buffer));
  assert.equal(pool.claim(large[0]!, large[1]!), 3_000_000);
  assert.equal(pool.count(large[1]!), 0);
});

test('bitmap-pool.full: every bit set, past a run of byte sums and with 1 to 3 words after the last 4', () => {
  const pool = new BitmapPool();
  for (const words of [1, 2, 3, 4, 5, 7, 124, 125, 127, 128, 131, 40_001]) {
    pool.reset(32 * words);
    const [a, b, c] = [pool.take(), pool.take(), pool.take()];
    a.fill(2 ** 32 - 1);
    b.fill(2 ** 32 - 1);
    assert.equal(pool.count(a), 32 * words);
    pool.orAnd(c, a, b);
    assert.equal(pool.count(c), 32 * words);
    assert.equal(pool.claim(a, b), 32 * words);
    assert.equal(pool.count(b), 0);
  }
});

test('bitmap-pool.wasm: the committed kernel is the one bitmap-pool.wat describes', async () => {
  const built = await wasmFromWat(await readFile(new URL('../src/bitmap-pool.wat', import.meta.url), 'utf8'));
  const committed = await readFile(new URL('../src/bitmap-pool.wasm', import.meta.url));
  assert.ok(built.equals(committed), 'bitmap-pool.wasm is out of date: npm run build:wasm');
});
