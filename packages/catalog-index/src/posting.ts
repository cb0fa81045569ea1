import { countBits } from './bit-counter.ts';
import type { BitmapPool } from './bitmap-pool.ts';

/**
 * The set of sounds (by their index position, a small integer) that contain one piece of text or
 * carry one tag. A sparse set is a sorted array of positions; once it holds more than one sound in
 * BITS_THRESHOLD of the catalog's positions it becomes a bitmap (tuned: the package's README).
 * Sets only ever grow into bitmaps, never back: a set that was that common once stays common.
 */
const BITS_THRESHOLD = 32;

export class Posting implements DocSet {
  /** Sorted positions, while sparse (`ids.length` is the capacity; `count` are in use). */
  private ids: Uint32Array | null = new Uint32Array(4);
  /** One bit per position, once dense. */
  private bits: Uint32Array | null = null;
  count = 0;

  has(doc: number): boolean {
    if (this.bits !== null) {
      const word = doc >>> 5;
      return word < this.bits.length && (this.bits[word]! & (1 << (doc & 31))) !== 0;
    }
    return this.indexOf(doc) >= 0;
  }

  /** Adds a position; appending the largest so far (how a catalog is loaded) is the cheap case. */
  add(doc: number, capacity: number): void {
    if (this.bits !== null) {
      this.growBits(doc + 1);
      const mask = 1 << (doc & 31);
      if ((this.bits[doc >>> 5]! & mask) === 0) {
        this.bits[doc >>> 5]! |= mask;
        this.count++;
      }
      return;
    }
    const ids = this.ids!;
    const last = this.count > 0 ? ids[this.count - 1]! : -1;
    if (doc === last) return;
    let at = this.count;
    if (doc < last) {
      at = this.lowerBound(doc);
      if (ids[at] === doc) return;
    }
    if (this.count === ids.length) this.ids = grown(ids, this.count * 2);
    this.ids!.copyWithin(at + 1, at, this.count);
    this.ids![at] = doc;
    this.count++;
    if (this.count * BITS_THRESHOLD > capacity && this.count > 64) this.toBits(capacity);
  }

  remove(doc: number): void {
    if (this.bits !== null) {
      const word = doc >>> 5;
      const mask = 1 << (doc & 31);
      if (word < this.bits.length && (this.bits[word]! & mask) !== 0) {
        this.bits[word]! &= ~mask;
        this.count--;
      }
      return;
    }
    const at = this.indexOf(doc);
    if (at < 0) return;
    this.ids!.copyWithin(at, at + 1, this.count);
    this.count--;
  }

  /**
   * A membership test for positions asked in increasing order, as an intersection walks them:
   * on a sorted array it gallops forward from the last answer instead of searching it all again.
   */
  seeker(): (doc: number) => boolean {
    const bits = this.bits;
    if (bits !== null) return (doc) => doc >>> 5 < bits.length && (bits[doc >>> 5]! & (1 << (doc & 31))) !== 0;
    const ids = this.ids!;
    const count = this.count;
    let at = 0;
    return (doc) => {
      if (at >= count) return false;
      if (ids[at]! >= doc) return ids[at] === doc;
      let step = 1;
      while (at + step < count && ids[at + step]! < doc) {
        at += step;
        step *= 2;
      }
      let low = at + 1;
      let high = Math.min(at + step, count);
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (ids[middle]! < doc) low = middle + 1;
        else high = middle;
      }
      at = low;
      return at < count && ids[at] === doc;
    };
  }

  /** Gives back the room a sorted array kept to grow into (after a first load). */
  trim(): void {
    if (this.ids !== null && this.ids.length > this.count) this.ids = this.ids.slice(0, this.count);
  }

  /** The bitmap, once dense (read only). */
  bitmap(): Uint32Array | null {
    return this.bits;
  }

  /** The positions in increasing order, while sparse (read only, and only until the posting changes). */
  sorted(): Uint32Array | null {
    return this.ids === null ? null : this.ids.subarray(0, this.count);
  }

  /** Sets this posting's bits in `bits`. */
  orInto(bits: Uint32Array): void {
    if (this.bits !== null) {
      for (let word = 0; word < this.bits.length; word++) bits[word]! |= this.bits[word]!;
      return;
    }
    const ids = this.ids!;
    for (let i = 0; i < this.count; i++) bits[ids[i]! >>> 5]! |= 1 << (ids[i]! & 31);
  }

  /** Sets the positions of this posting, which holds no bitmap, in `bits`; returns how many were not set before. */
  orIntoCounting(bits: Uint32Array): number {
    const ids = this.ids!;
    let added = 0;
    for (let i = 0; i < this.count; i++) {
      const word = ids[i]! >>> 5;
      const bit = 1 << (ids[i]! & 31);
      added += (bits[word]! & bit) === 0 ? 1 : 0;
      bits[word]! |= bit;
    }
    return added;
  }

  /** Calls `visit` with every position, in increasing order. */
  forEach(visit: (doc: number) => void): void {
    if (this.bits === null) {
      const ids = this.ids!;
      for (let i = 0; i < this.count; i++) visit(ids[i]!);
      return;
    }
    forEachBit(this.bits, visit);
  }

  private indexOf(doc: number): number {
    const at = this.lowerBound(doc);
    return at < this.count && this.ids![at] === doc ? at : -1;
  }

  private lowerBound(doc: number): number {
    return lowerBound(this.ids!, this.count, doc);
  }

  private toBits(capacity: number): void {
    const ids = this.ids!;
    this.bits = new Uint32Array((capacity + 31) >>> 5);
    for (let i = 0; i < this.count; i++) this.bits[ids[i]! >>> 5]! |= 1 << (ids[i]! & 31);
    this.ids = null;
  }

  private growBits(size: number): void {
    const words = (size + 31) >>> 5;
    if (words > this.bits!.length) this.bits = grown(this.bits!, Math.max(words, this.bits!.length * 2));
  }
}

/** A copy of `array` with room for `capacity` elements. */
export function grown<T extends Uint32Array | Int32Array | Uint16Array | Uint8Array | Float64Array>(
  array: T,
  capacity: number,
): T {
  const larger = new (array.constructor as new (length: number) => T)(Math.max(capacity, 4));
  larger.set(array);
  return larger;
}

/** What a query intersects: a posting, or a union of postings made for one query. */
export interface DocSet {
  readonly count: number;
  has(doc: number): boolean;
  forEach(visit: (doc: number) => void): void;
  /** One bit per position, when the set is kept so. */
  bitmap(): Uint32Array | null;
  /** A membership test for positions asked in increasing order. */
  seeker(): (doc: number) => boolean;
}

/** A bitmap made for one query, as a set. */
export class BitmapSet implements DocSet {
  readonly count: number;

  /** `count`: how many bits are set, when the maker counted them. */
  constructor(
    private readonly bits: Uint32Array,
    count = countBits(bits),
  ) {
    this.count = count;
  }

  has(doc: number): boolean {
    return (this.bits[doc >>> 5]! & (1 << (doc & 31))) !== 0;
  }

  forEach(visit: (doc: number) => void): void {
    forEachBit(this.bits, visit);
  }

  bitmap(): Uint32Array {
    return this.bits;
  }

  seeker(): (doc: number) => boolean {
    return (doc) => this.has(doc);
  }
}

/**
 * The union of `postings` (at least two), in a bitmap of the pool's. Sorted arrays alone are
 * counted as they are set: each position counts when its bit was not yet set. Else the first
 * bitmap is copied, the others are ORed in (in WebAssembly: BitmapPool.orInto), the sorted arrays'
 * positions set, and the union counted once made.
 */
export function unionOf(postings: Posting[], pool: BitmapPool): DocSet {
  const maps: Uint32Array[] = [];
  for (const posting of postings) {
    const map = posting.bitmap();
    if (map !== null) maps.push(map);
  }
  if (maps.length === 0) {
    const bits = pool.take();
    let count = 0;
    for (const posting of postings) count += posting.orIntoCounting(bits);
    return new BitmapSet(bits, count);
  }
  const bits = pool.copyOf(maps[0]!);
  for (let i = 1; i < maps.length; i++) pool.orInto(bits, maps[i]!);
  for (const posting of postings) if (posting.bitmap() === null) posting.orInto(bits);
  return new BitmapSet(bits, pool.count(bits));
}

/** The first place in `sorted` (its first `end` elements, ascending) holding `doc` or more: `end` when none does. */
export function lowerBound(sorted: Uint32Array, end: number, doc: number): number {
  let low = 0;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < doc) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function forEachBit(bits: Uint32Array, visit: (doc: number) => void): void {
  for (let word = 0; word < bits.length; word++) {
    let value = bits[word]!;
    while (value !== 0) {
      const low = value & -value;
      visit((word << 5) + 31 - Math.clz32(low));
      value ^= low;
    }
  }
}
