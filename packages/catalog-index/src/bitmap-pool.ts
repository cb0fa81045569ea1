import { readFileSync } from 'node:fs';
import { countBits } from './bit-counter.ts';
import { PAGE } from './distance-kernel.ts';

/** The WebAssembly passes (bitmap-pool.wat), compiled once; each pool makes its own instance and memory. */
const poolKernel = new WebAssembly.Module(readFileSync(new URL('./bitmap-pool.wasm', import.meta.url)));

interface Kernel {
  memory: WebAssembly.Memory;
  ones(a: number, words: number): number;
  claim(bits: number, rest: number, words: number): number;
  or_and(into: number, a: number, b: number, words: number): void;
  or_into(into: number, a: number, words: number): void;
  and_into(into: number, a: number, words: number): void;
  and_not_into(into: number, a: number, words: number): void;
}

type Pass = 'or_into' | 'and_into' | 'and_not_into';

/** Bitmaps a pool makes room for before its first query. */
const FIRST_ROOM = 8;

/**
 * Bitmaps for the query being answered, handed out again to the next one. A query makes a few
 * bitmaps over the whole catalog (unions of postings, a duration range, relevance groups), a bit
 * per sound each; allocated anew, thousands a second, they were memory the process took from the
 * system faster than the collector gave it back.
 *
 * They lie in the memory of a WebAssembly instance, whose passes (bitmap-pool.wat) count them and
 * combine them 128 bits a step, where JavaScript takes 32 with a check each. A bitmap from outside
 * (a posting's, a range bound's) is first copied into a spare place in that memory: a copy runs at
 * memory speed, and with it a pass takes a fraction of JavaScript's time.
 * That memory grows only between queries (growing it detaches every view of it): a query that
 * takes more bitmaps than there is room for gets plain arrays for the rest, which the same methods
 * handle in JavaScript, and the next query starts with room for as many.
 */
export class BitmapPool {
  private readonly kernel = new WebAssembly.Instance(poolKernel).exports as unknown as Kernel;
  private bitmaps: Uint32Array[] = [];
  /** Where a bitmap from outside the memory is copied for a pass. */
  private spare = new Uint32Array(0);
  private used = 0;
  private words = 0;
  /** The most bitmaps one query has taken. */
  private most = FIRST_ROOM;

  /** Starts a query over `capacity` positions: every bitmap handed out before is free again. */
  reset(capacity: number): void {
    const words = (capacity + 31) >>> 5;
    if (words !== this.words || this.most > this.bitmaps.length) this.layOut(words, this.most);
    this.used = 0;
  }

  /** A bitmap with no bit set. */
  take(): Uint32Array {
    const bits = this.takeUncleared();
    bits.fill(0);
    return bits;
  }

  /** A bitmap holding what its last query left: for one whose every word is written before it is read. */
  takeUncleared(): Uint32Array {
    const at = this.used++;
    if (at < this.bitmaps.length) return this.bitmaps[at]!;
    this.most = Math.max(this.most, this.used);
    return new Uint32Array(this.words);
  }

  /** A bitmap holding `bits`, cut to the pool's length or with zeros past theirs. */
  copyOf(bits: Uint32Array): Uint32Array {
    const copy = this.takeUncleared();
    copy.set(bits.length > copy.length ? bits.subarray(0, copy.length) : bits);
    copy.fill(0, bits.length);
    return copy;
  }

  /** How many bits are set in `bits`. */
  count(bits: Uint32Array): number {
    return this.holds(bits) ? this.kernel.ones(bits.byteOffset, bits.length) : countBits(bits);
  }

  /**
   * Keeps in `bits` only the bits also set in `rest` and clears those in `rest`, both the pool's
   * length: the sounds of `bits` still left move out of `rest`. Returns how many moved.
   */
  claim(bits: Uint32Array, rest: Uint32Array): number {
    if (this.holds(bits) && this.holds(rest)) return this.kernel.claim(bits.byteOffset, rest.byteOffset, bits.length);
    for (let i = 0; i < bits.length; i++) {
      const kept = bits[i]! & rest[i]!;
      bits[i] = kept;
      rest[i]! ^= kept;
    }
    return countBits(bits);
  }

  /** Sets in `into` (the pool's) the bits set in `other` (any length: none past its end). */
  orInto(into: Uint32Array, other: Uint32Array): void {
    if (!this.pass('or_into', into, other)) {
      const shared = Math.min(into.length, other.length);
      for (let i = 0; i < shared; i++) into[i]! |= other[i]!;
    }
  }

  /** Clears in `into` (the pool's) the bits not set in `other` (any length: none past its end). */
  andInto(into: Uint32Array, other: Uint32Array): void {
    if (!this.pass('and_into', into, other)) {
      const shared = Math.min(into.length, other.length);
      for (let i = 0; i < shared; i++) into[i]! &= other[i]!;
      into.fill(0, shared);
    }
  }

  /** Clears in `into` (the pool's) the bits set in `other` (any length: none past its end). */
  andNotInto(into: Uint32Array, other: Uint32Array): void {
    if (!this.pass('and_not_into', into, other)) {
      const shared = Math.min(into.length, other.length);
      for (let i = 0; i < shared; i++) into[i]! &= ~other[i]!;
    }
  }

  /** Sets in `into` the bits set in both `a` and `b`, all three the pool's length. */
  orAnd(into: Uint32Array, a: Uint32Array, b: Uint32Array): void {
    if (this.holds(into) && this.holds(a) && this.holds(b)) {
      this.kernel.or_and(into.byteOffset, a.byteOffset, b.byteOffset, into.length);
      return;
    }
    for (let i = 0; i < into.length; i++) into[i]! |= a[i]! & b[i]!;
  }

  /**
   * Runs a pass in WebAssembly when `into` lies in its memory, with `other` copied into the spare
   * place unless it lies there too (cut to the pool's length, or with zeros past its end); false
   * when `into` does not, for the caller to do it in JavaScript.
   */
  private pass(name: Pass, into: Uint32Array, other: Uint32Array): boolean {
    if (!this.holds(into)) return false;
    let source = other;
    if (!this.holds(other)) {
      source = this.spare;
      source.set(other.length > source.length ? other.subarray(0, source.length) : other);
      source.fill(0, other.length);
    }
    this.kernel[name](into.byteOffset, source.byteOffset, into.length);
    return true;
  }

  /** Whether `bits` is one of the bitmaps in the instance's memory (not one made past its room). */
  private holds(bits: Uint32Array): boolean {
    return bits.buffer === this.kernel.memory.buffer;
  }

  /** Room for `count` bitmaps of `words` words and the spare one, each at a multiple of 16 bytes. */
  private layOut(words: number, count: number): void {
    const stride = 4 * ((words + 3) & ~3);
    const memory = this.kernel.memory;
    const needed = stride * (count + 1);
    if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
    this.bitmaps = Array.from({ length: count }, (_, i) => new Uint32Array(memory.buffer, i * stride, words));
    this.spare = new Uint32Array(memory.buffer, count * stride, words);
    this.words = words;
  }
}
