import { readFileSync } from 'node:fs';
import { PAGE } from './distance-kernel.ts';

/** The WebAssembly kernel (bit-count.wat), compiled once; each counter makes its own instance and memory. */
const bitCountKernel = new WebAssembly.Module(readFileSync(new URL('./bit-count.wasm', import.meta.url)));

type Common = (a: number, b: number, words: number) => number;
type Listed = (ids: number, count: number, bits: number) => number;

/**
 * Counts how many sounds of each of many sets are also in one bitmap, as a facet counts each tag's
 * posting over what a search found, or the bits of one bitmap (countBits). The counting runs in
 * WebAssembly, which has a popcount instruction (JavaScript's bit trick costs a dozen operations a
 * word) and reads arrays without JavaScript's checks. Both are copied into its memory first (a copy
 * runs at memory speed): the bitmap counted against once, then each set in turn, after it.
 */
export class BitCounter {
  private readonly memory: WebAssembly.Memory;
  private readonly common: Common;
  private readonly listed: Listed;
  private view: Uint32Array;
  /** Where each set is copied, in words: past the bitmap counted against, rounded up to 4 words. */
  private second = 0;
  /** The length of the bitmap counted against, in words. */
  private length = 0;

  constructor() {
    const instance = new WebAssembly.Instance(bitCountKernel);
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.common = instance.exports.common as Common;
    this.listed = instance.exports.listed as Listed;
    this.view = new Uint32Array(this.memory.buffer);
  }

  /** Takes `bits` as the bitmap the next counts are against (a copy: it may change after). */
  against(bits: Uint32Array): void {
    const padded = roundUp(bits.length);
    this.room(2 * padded);
    this.view.set(bits, 0);
    this.view.fill(0, bits.length, padded);
    this.length = bits.length;
    this.second = padded;
  }

  /** How many bits are set both in `bits` and in the bitmap counted against (over the shorter one). */
  countBitmap(bits: Uint32Array): number {
    const shared = Math.min(bits.length, this.length);
    const padded = roundUp(shared);
    const { view, second } = this;
    view.set(shared === bits.length ? bits : bits.subarray(0, shared), second);
    view.fill(0, second + shared, second + padded);
    return this.common(0, 4 * second, padded);
  }

  /** How many of the positions in `ids` (ascending) are set in the bitmap counted against. */
  countList(ids: Uint32Array): number {
    // Positions past the bitmap are not in it (and would read past it); they are the last ones.
    let count = ids.length;
    while (count > 0 && ids[count - 1]! >= 32 * this.length) count--;
    this.room(this.second + count);
    this.view.set(count === ids.length ? ids : ids.subarray(0, count), this.second);
    return this.listed(4 * this.second, count, 0);
  }

  /**
   * How many bits are set in `bits`. It is copied where the bitmap counted against was: `against`
   * must be called again before counting against one.
   */
  countOnes(bits: Uint32Array): number {
    const padded = roundUp(bits.length);
    this.room(padded);
    this.view.set(bits, 0);
    this.view.fill(0, bits.length, padded);
    this.length = 0;
    return this.common(0, 0, padded);
  }

  /** Grows the memory to hold `words` (it grows in place; its view is made again). */
  private room(words: number): void {
    const bytes = 4 * words;
    if (this.memory.buffer.byteLength >= bytes) return;
    this.memory.grow(Math.ceil((bytes - this.memory.buffer.byteLength) / PAGE));
    this.view = new Uint32Array(this.memory.buffer);
  }
}

/** A length in words rounded up to whole 128-bit steps. */
function roundUp(words: number): number {
  return (words + 3) & ~3;
}

/** The counter `countBits` copies into (calls never overlap: a query runs in one synchronous call). */
const ones = new BitCounter();

/** How many bits are set in `bits`. */
export function countBits(bits: Uint32Array): number {
  return ones.countOnes(bits);
}
