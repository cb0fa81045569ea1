import type { BitmapPool } from './bitmap-pool.ts';
import { BitmapSet, grown, type DocSet } from './posting.ts';

/** How many bounds the catalog's values are cut at (tuned: the package's README). */
const BUCKETS = 128;

/**
 * Which sounds have a value (a duration; also an onset or a loudness) below each of BUCKETS
 * bounds (quantiles of the catalog's values when they were chosen): one bitmap per bound. The
 * sounds within [min, max] are then the bitmap under the bound just past `max`, less the one
 * under the bound at or below `min`, a word of 32 sounds at a time, where checking every sound's
 * value made such filters the costliest part of a search. That takes in the whole of the two
 * buckets `min` and `max` fall in; their sounds outside [min, max] are then taken out, read from
 * each bucket's own list of its sounds and their values (read in sequence, where looking them up
 * in the catalog's column is one random read per sound, a cache miss each in a large catalog).
 * A sound without a value (NaN, not measured) is within no range.
 */
export class DurationIndex {
  /** Ascending; `below[k]` holds the sounds with duration < bounds[k]. */
  private bounds = new Float64Array(0);
  private below: Uint32Array[] = [];
  /** The sounds with a value. */
  private held = new Uint32Array(0);
  /**
   * Bucket k's sounds and their values, in no order (`sizes[k]` of them): the sounds with a value
   * from bounds[k - 1] (or any, for the first) up to bounds[k] (or any, for the last).
   */
  private docs = [new Uint32Array(16)];
  private values = [new Float64Array(16)];
  private sizes = new Uint32Array(1);

  /** Chooses the bounds from the durations of `count` sounds, `durationAt(rank)` in ascending order. */
  reset(count: number, durationAt: (rank: number) => number, capacity: number): void {
    const bounds = new Set<number>();
    for (let k = 1; k < BUCKETS; k++) {
      const rank = Math.floor((k * count) / BUCKETS);
      if (rank < count) bounds.add(durationAt(rank));
    }
    this.bounds = Float64Array.from([...bounds].sort((a, b) => a - b));
    this.below = [...this.bounds].map(() => new Uint32Array((capacity + 31) >>> 5));
    this.held = new Uint32Array((capacity + 31) >>> 5);
    const perBucket = Math.ceil((count / (this.bounds.length + 1)) * 1.1) + 16;
    this.docs = Array.from({ length: this.bounds.length + 1 }, () => new Uint32Array(perBucket));
    this.values = Array.from({ length: this.bounds.length + 1 }, () => new Float64Array(perBucket));
    this.sizes = new Uint32Array(this.bounds.length + 1);
  }

  add(doc: number, duration: number): void {
    if (Number.isNaN(duration)) return;
    if (doc >>> 5 >= this.held.length) this.held = grown(this.held, Math.max((doc >>> 5) + 1, this.held.length * 2));
    this.held[doc >>> 5]! |= 1 << (doc & 31);
    let k = this.bounds.length - 1;
    for (; k >= 0 && duration < this.bounds[k]!; k--) {
      if (doc >>> 5 >= this.below[k]!.length)
        this.below[k] = grown(this.below[k]!, Math.max((doc >>> 5) + 1, this.below[k]!.length * 2));
      this.below[k]![doc >>> 5]! |= 1 << (doc & 31);
    }
    this.list(k + 1, doc, duration);
  }

  /**
   * Adds every sound of `docs` with its value in `values` (by position), as `add` would one by one
   * (a first load). Each sound's bit goes into the bitmap of its own bucket's end only; each bitmap
   * then takes in the one before it, a word at a time, so a sound is not set in every bitmap above
   * its value (half of them on average) one random write each.
   */
  addAll(docs: ArrayLike<number>, values: Float64Array): void {
    const { bounds, below } = this;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      const value = values[doc]!;
      if (Number.isNaN(value)) continue;
      if (doc >>> 5 >= this.held.length) this.held = grown(this.held, Math.max((doc >>> 5) + 1, this.held.length * 2));
      this.held[doc >>> 5]! |= 1 << (doc & 31);
      // The first bound above the value (binary search): its bitmap is the first to hold the sound.
      let low = 0;
      for (let high = bounds.length; low < high; ) {
        const middle = (low + high) >>> 1;
        if (bounds[middle]! <= value) low = middle + 1;
        else high = middle;
      }
      if (low < bounds.length) {
        if (doc >>> 5 >= below[low]!.length)
          below[low] = grown(below[low]!, Math.max((doc >>> 5) + 1, below[low]!.length * 2));
        below[low]![doc >>> 5]! |= 1 << (doc & 31);
      }
      this.list(low, doc, value);
    }
    for (let k = 1; k < below.length; k++) {
      if (below[k]!.length < below[k - 1]!.length) below[k] = grown(below[k]!, below[k - 1]!.length);
      const under = below[k - 1]!;
      const bits = below[k]!;
      for (let word = 0; word < under.length; word++) bits[word]! |= under[word]!;
    }
  }

  remove(doc: number, duration: number): void {
    if (doc >>> 5 < this.held.length) this.held[doc >>> 5]! &= ~(1 << (doc & 31));
    if (Number.isNaN(duration)) return;
    let k = this.bounds.length - 1;
    for (; k >= 0 && duration < this.bounds[k]!; k--) {
      if (doc >>> 5 < this.below[k]!.length) this.below[k]![doc >>> 5]! &= ~(1 << (doc & 31));
    }
    // Out of its bucket's list: the last of the list takes its place.
    const bucket = k + 1;
    const docs = this.docs[bucket]!;
    const last = this.sizes[bucket]! - 1;
    for (let i = last; i >= 0; i--) {
      if (docs[i] !== doc) continue;
      docs[i] = docs[last]!;
      this.values[bucket]![i] = this.values[bucket]![last]!;
      this.sizes[bucket] = last;
      return;
    }
  }

  /** The sounds whose value is within [min, max]. */
  within(min: number, max: number, pool: BitmapPool): DocSet {
    const count = this.bounds.length;
    // The buckets max and min fall in: the first bound above each is their bucket's end.
    const upper = this.firstBoundAbove(max);
    const lower = this.firstBoundAbove(min) - 1;
    // In: below the first bound above max (with no such bound, every sound with a value), and not
    // below the last bound at or below min (with no min, a copy of the first is all).
    const bits = pool.copyOf(upper < count ? this.below[upper]! : this.held);
    if (lower >= 0) pool.andNotInto(bits, this.below[lower]!);
    let found = pool.count(bits);
    // Every sound of max's bucket is in, and every sound of min's (it is not below its start):
    // those outside [min, max] leave. Without a max (or a min) that edge has none to take out.
    const top = max === Infinity ? -1 : upper;
    const bottom = min === -Infinity ? -1 : lower + 1;
    if (top >= 0) found -= this.takeOut(bits, top, min, max);
    if (bottom >= 0 && bottom !== top) found -= this.takeOut(bits, bottom, min, max);
    return new BitmapSet(bits, found);
  }

  /** Clears in `bits` the sounds of one bucket whose value is outside [min, max]; returns how many were set. */
  private takeOut(bits: Uint32Array, bucket: number, min: number, max: number): number {
    const docs = this.docs[bucket]!;
    const values = this.values[bucket]!;
    const size = this.sizes[bucket]!;
    let cleared = 0;
    for (let i = 0; i < size; i++) {
      const value = values[i]!;
      if (value >= min && value <= max) continue;
      const doc = docs[i]!;
      const mask = 1 << (doc & 31);
      if ((bits[doc >>> 5]! & mask) === 0) continue;
      bits[doc >>> 5]! &= ~mask;
      cleared++;
    }
    return cleared;
  }

  /** Lists a sound and its value in a bucket. */
  private list(bucket: number, doc: number, value: number): void {
    const size = this.sizes[bucket]!;
    if (size === this.docs[bucket]!.length) {
      this.docs[bucket] = grown(this.docs[bucket]!, size * 2);
      this.values[bucket] = grown(this.values[bucket]!, size * 2);
    }
    this.docs[bucket]![size] = doc;
    this.values[bucket]![size] = value;
    this.sizes[bucket] = size + 1;
  }

  private firstBoundAbove(value: number): number {
    let k = 0;
    while (k < this.bounds.length && this.bounds[k]! <= value) k++;
    return k;
  }
}
