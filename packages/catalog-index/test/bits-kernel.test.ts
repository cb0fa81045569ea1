import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { wasmFromWat } from '../scripts/wasm-from-wat.js';
import { KERNEL_FROM, onesOf } from '../src/bits-kernel.ts';
import { countBits, popcount, Posting } from '../src/posting.ts';

/** Ones counted bit by bit: what the kernel must agree with. */
function plainOnes(a: Uint32Array, words: number, b?: Uint32Array): number {
  let count = 0;
  for (let word = 0; word < words; word++) {
    const value = b === undefined ? a[word]! : a[word]! & b[word]!;
    for (let bit = 0; bit < 32; bit++) count += (value >>> bit) & 1;
  }
  return count;
}

const bitmap = (length: number) => fc.uint32Array({ minLength: length, maxLength: length });

describe('bits kernel', () => {
  test('bits.wasm: the committed kernel is the one bits.wat describes', async () => {
    const built = await wasmFromWat(await readFile(new URL('../src/bits.wat', import.meta.url), 'utf8'));
    const committed = await readFile(new URL('../src/bits.wasm', import.meta.url));
    assert.ok(built.equals(committed), 'bits.wasm is out of date: npm run build:wasm');
  });

  test('bits.ones: the kernel counts as bit by bit, any length, one bitmap or two ANDed, after larger ones', () => {
    fc.assert(
      fc.property(
        fc.nat(9000).chain((length) => fc.tuple(bitmap(length), bitmap(length), fc.nat(length))),
        ([a, b, words]) => {
          // A larger count first leaves words behind in the kernel's memory that must not count.
          onesOf(new Uint32Array(20_000).fill(0xffffffff), 20_000, new Uint32Array(20_000).fill(0xffffffff));
          assert.equal(onesOf(a, words), plainOnes(a, words));
          assert.equal(onesOf(a, words, b), plainOnes(a, words, b));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('bits.postings: counts in a set and of a bitmap agree with the word-by-word count past KERNEL_FROM', () => {
    const words = KERNEL_FROM * 3 + 1;
    const capacity = words * 32;
    const posting = new Posting();
    const found = new Uint32Array(words);
    for (let doc = 0; doc < capacity; doc += 3) posting.add(doc, capacity);
    for (let doc = 0; doc < capacity; doc += 5) found[doc >>> 5]! |= 1 << (doc & 31);
    let expected = 0;
    for (let doc = 0; doc < capacity; doc += 15) expected++;
    assert.equal(posting.countIn(found), expected);
    assert.equal(countBits(found), Math.ceil(capacity / 5));
    assert.equal(popcount(0xffffffff), 32);
  });
});
