import type { BitmapPool } from './bitmap-pool.ts';
import { BitmapSet, grown, type DocSet } from './posting.ts';

/** How many duration bounds the catalog is cut at. */
const BUCKETS = 128;
const EMPTY = new Uint32Array(0);

/**
 * Which sounds have a value (a duration; also an onset or a loudness) below each of BUCKETS
 * bounds (quantiles of the catalog's values when they were chosen): one bitmap per bound. The
 * sounds within [min, max] are then the bitmap under the bound just past `max`, less the one
 * under the bound at or below `min`, with only the sounds of the two edge buckets checked one by
 * one: a word of 32 sounds at a time, where checking every sound's value made such filters the
 * costliest part of a search. A sound without a value (NaN, not measured) is within no range.
 */
export class DurationIndex {
  /** Ascending; `below[k]` holds the sounds with duration < bounds[k]. */
  private bounds = new Float64Array(0);
  private below: Uint32Array[] = [];
  /** The sounds with a value. */
  private held = new Uint32Array(0);

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
  }

  add(doc: number, duration: number): void {
    if (Number.isNaN(duration)) return;
    if (doc >>> 5 >= this.held.length) this.held = grown(this.held, Math.max((doc >>> 5) + 1, this.held.length * 2));
    this.held[doc >>> 5]! |= 1 << (doc & 31);
    for (let k = this.bounds.length - 1; k >= 0 && duration < this.bounds[k]!; k--) {
      if (doc >>> 5 >= this.below[k]!.length) this.below[k] = grown(this.below[k]!, Math.max((doc >>> 5) + 1, this.below[k]!.length * 2));
      this.below[k]![doc >>> 5]! |= 1 << (doc & 31);
    }
  }

  remove(doc: number, duration: number): void {
    if (doc >>> 5 < this.held.length) this.held[doc >>> 5]! &= ~(1 << (doc & 31));
    for (let k = this.bounds.length - 1; k >= 0 && duration < this.bounds[k]!; k--) {
      if (doc >>> 5 < this.below[k]!.length) this.below[k]![doc >>> 5]! &= ~(1 << (doc & 31));
    }
  }

  /** The sounds whose value (in `durations`) is within [min, max]. */
  within(min: number, max: number, durations: Float64Array, pool: BitmapPool): DocSet {
    const count = this.bounds.length;
    const upper = this.firstBoundAbove(max);
    const lower = this.lastBoundAtOrBelow(min);
    const none = pool.take();
    const words = none.length;
    const alive = sized(pool, this.held, words);
    // In: below the first bound above max, and not below the last bound at or below min.
    const inside = sized(pool, upper < count ? this.below[upper]! : alive, words);
    const under = lower >= 0 ? sized(pool, this.below[lower]!, words) : none;
    // To check one by one: the bucket that max falls in (not below its lower bound) and the one
    // min falls in (below its upper bound); without a max (or a min) that edge needs no check.
    // Every other sound in is surely within [min, max].
    const topEdgeFloor = max === Infinity ? alive : upper > 0 ? sized(pool, this.below[upper - 1]!, words) : none;
    const bottomEdgeCeiling = min === -Infinity ? none : lower + 1 < count ? sized(pool, this.below[lower + 1]!, words) : alive;
    const bits = pool.take();
    for (let word = 0; word < words; word++) {
      let value = inside[word]! & ~under[word]!;
      if (value === 0) continue;
      let edge = value & (~topEdgeFloor[word]! | bottomEdgeCeiling[word]!);
      while (edge !== 0) {
        const low = edge & -edge;
        const duration = durations[(word << 5) + 31 - Math.clz32(low)]!;
        if (duration < min || duration > max) value &= ~low;
        edge ^= low;
      }
      bits[word] = value;
    }
    return new BitmapSet(bits);
  }

  private firstBoundAbove(value: number): number {
    let k = 0;
    while (k < this.bounds.length && this.bounds[k]! <= value) k++;
    return k;
  }

  private lastBoundAtOrBelow(value: number): number {
    let k = this.bounds.length - 1;
    while (k >= 0 && this.bounds[k]! > value) k--;
    return k;
  }
}

/** `bits` with as many words as the pool's bitmaps, so the loop above never reads past an end. */
function sized(pool: BitmapPool, bits: Uint32Array, words: number): Uint32Array {
  if (bits.length === words) return bits;
  const copy = pool.take();
  copy.set(bits.length > words ? bits.subarray(0, words) : bits);
  return copy;
}
