import type { SearchFilters, SortField } from './query.ts';
import type { BitmapPool } from './bitmap-pool.ts';
import { grown, lowerBound } from './posting.ts';
import type { SortOrder } from './sort-order.ts';

/** What a query found: every sound, a bitmap of them, or their positions. */
export type Found = { all: true } | { bits: Uint32Array; count: number } | { list: Uint32Array };
export const ALL: Found = { all: true };
export const NOTHING: Found = { list: new Uint32Array(0) };

/** Reads the page a search asks for out of what it found, in the sort order it asks for. */
export class PageReader {
  /** Scratch space: a mark per position, and places in an order. */
  private marks = new Uint8Array(0);
  private ranks = new Uint32Array(0);

  constructor(
    private readonly orders: Record<SortField, SortOrder>,
    private readonly durations: () => Float64Array,
    private readonly matches: () => Uint32Array,
    private readonly pool: BitmapPool,
  ) {}

  /** Room for `capacity` positions. */
  reserve(capacity: number): void {
    if (this.marks.length >= capacity) return;
    this.marks = grown(this.marks, capacity);
    this.ranks = grown(this.ranks, capacity);
  }

  /**
   * The page of what was found, in a sort order. Two ways: walk the order from its start until
   * the page is filled (cheap when matches are spread through it), or sort the matches' places in
   * the order (cheap when they are few). A walk that takes far longer than its estimate (matches
   * bunched at the other end: short sounds sorted by duration, descending) gives up and sorts.
   * Sorted by duration under a duration filter, only the part of the order within the range is walked.
   */
  page(found: Found, filters: SearchFilters, sort: SortField, count: number): number[] {
    const offset = (filters.page - 1) * filters.limit;
    const range = sort === 'duration' ? this.durationRange(filters) : null;
    return this.slice(found, sort, filters.order === 'desc', offset, offset + filters.limit, count, range);
  }

  /**
   * The sounds at places [offset, end) of what was found, in one sort order. `range` narrows the
   * part of the order walked to where the matches can be (ranks [from, to)).
   */
  slice(
    found: Found,
    sort: SortField,
    descending: boolean,
    offset: number,
    end: number,
    count: number,
    range: [number, number] | null = null,
  ): number[] {
    const { order, rank, size } = this.orders[sort];
    const total = 'list' in found ? found.list.length : 'bits' in found ? found.count : count;
    const wanted = Math.min(end, total);
    if (offset >= wanted) return [];
    const docs: number[] = [];
    if (!('list' in found) && !('bits' in found)) {
      for (let i = offset; i < wanted; i++) docs.push(order[descending ? size - 1 - i : i]!);
      return docs;
    }
    const [from, to] = range ?? [0, size];
    const walkCost = (wanted * (to - from)) / total;
    const sortCost = total * Math.log2(total + 1) * 4;
    if (walkCost <= sortCost) {
      const marks = this.marks;
      const list = 'list' in found ? found.list : null;
      const budget = Math.min(to - from, 4 * walkCost + 64);
      // A list's sounds are marked, a write each and another to clear it; for a walk short beside
      // the list even at its longest, each sound walked is looked up in it instead (it is sorted).
      const marked = list !== null && budget * Math.log2(total + 1) >= 2 * total;
      if (marked) for (const doc of list) marks[doc] = 1;
      const bits = 'bits' in found ? found.bits : null;
      let seen = 0;
      for (let step = 0; step < budget && seen < wanted; step++) {
        const doc = order[descending ? to - 1 - step : from + step]!;
        if (bits ? (bits[doc >>> 5]! & (1 << (doc & 31))) === 0 : marked ? marks[doc] === 0 : !holds(list!, doc))
          continue;
        if (seen++ >= offset) docs.push(doc);
      }
      if (marked) for (const doc of list) marks[doc] = 0;
      if (seen >= wanted || budget === to - from) return docs;
    }
    // Many matches: mark their places in the order on a bitmap and read it from the right end.
    if (total * Math.log2(total + 1) * 4 > total + size / 8)
      return this.byMarkedRanks(found, rank, order, descending, offset, wanted);
    const list = 'list' in found ? found.list : this.listOf(found.bits, total);
    const places = this.ranks.subarray(0, list.length);
    for (let i = 0; i < list.length; i++) places[i] = rank[list[i]!]!;
    places.sort();
    const sorted: number[] = [];
    for (let i = offset; i < wanted; i++) sorted.push(order[places[descending ? list.length - 1 - i : i]!]!);
    return sorted;
  }

  /**
   * Up to `limit` sounds of what was found, from rank `from` of `sorted` on, in that order: the
   * page of a cursor walk. Either the order is walked from `from` until the page is full (cheap
   * when matches are dense), or the matches' ranks past `from` are sorted (cheap when they are few).
   */
  walk(found: Found, sorted: SortOrder, from: number, limit: number): number[] {
    const { order, rank, size } = sorted;
    const docs: number[] = [];
    if (!('list' in found) && !('bits' in found)) {
      for (let i = from; i < size && docs.length < limit; i++) docs.push(order[i]!);
      return docs;
    }
    const total = 'list' in found ? found.list.length : found.count;
    if (total === 0) return docs;
    const walkCost = (limit * (size - from)) / total;
    if ('list' in found && walkCost > total * Math.log2(total + 1) * 4) {
      const places: number[] = [];
      for (const doc of found.list) if (rank[doc]! >= from) places.push(rank[doc]!);
      places.sort((a, b) => a - b);
      for (let i = 0; i < places.length && i < limit; i++) docs.push(order[places[i]!]!);
      return docs;
    }
    const marks = this.marks;
    const list = 'list' in found ? found.list : null;
    if (list) for (const doc of list) marks[doc] = 1;
    const bits = 'bits' in found ? found.bits : null;
    for (let i = from; i < size && docs.length < limit; i++) {
      const doc = order[i]!;
      if (bits ? (bits[doc >>> 5]! & (1 << (doc & 31))) !== 0 : marks[doc] === 1) docs.push(doc);
    }
    if (list) for (const doc of list) marks[doc] = 0;
    return docs;
  }

  /** The page found by setting a bit per match's place in the order, then reading the bits in order. */
  private byMarkedRanks(
    found: { list: Uint32Array } | { bits: Uint32Array },
    rank: Uint32Array,
    order: Uint32Array,
    descending: boolean,
    offset: number,
    wanted: number,
  ): number[] {
    const places = this.pool.take();
    const mark = (doc: number) => {
      const place = rank[doc]!;
      places[place >>> 5]! |= 1 << (place & 31);
    };
    if ('list' in found) for (const doc of found.list) mark(doc);
    else forEachSetBit(found.bits, mark);
    const docs: number[] = [];
    let seen = 0;
    for (let i = 0; i < places.length && seen < wanted; i++) {
      const word = descending ? places.length - 1 - i : i;
      let value = places[word]!;
      while (value !== 0 && seen < wanted) {
        // Lowest set bit going up, highest going down.
        const bit = descending ? 31 - Math.clz32(value) : 31 - Math.clz32(value & -value);
        value &= ~(1 << bit);
        if (seen++ >= offset) docs.push(order[(word << 5) + bit]!);
      }
    }
    return docs;
  }

  /** The ranks [from, to) of the duration order whose sounds are within the filter's durations. */
  private durationRange(filters: SearchFilters): [number, number] {
    const { order, size } = this.orders.duration;
    const durations = this.durations();
    const firstAbove = (value: number, inclusive: boolean) => {
      let low = 0;
      let high = size;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const duration = durations[order[middle]!]!;
        if (duration < value || (inclusive && duration === value)) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const from = filters.minDuration === undefined ? 0 : firstAbove(filters.minDuration, false);
    const to = filters.maxDuration === undefined ? size : firstAbove(filters.maxDuration, true);
    return [from, Math.max(from, to)];
  }

  private listOf(bits: Uint32Array, count: number): Uint32Array {
    const matches = this.matches();
    let found = 0;
    forEachSetBit(bits, (doc) => {
      matches[found++] = doc;
    });
    return matches.subarray(0, count);
  }
}

/** Whether a sorted list holds a position. */
function holds(sorted: Uint32Array, doc: number): boolean {
  const at = lowerBound(sorted, sorted.length, doc);
  return at < sorted.length && sorted[at] === doc;
}

/**
 * posting.ts forEachBit, again: called with many different functions across the index, a shared
 * loop calls each through a lookup; a copy per caller here keeps a page's marking loop inlined.
 */
function forEachSetBit(bits: Uint32Array, visit: (doc: number) => void): void {
  for (let word = 0; word < bits.length; word++) {
    let value = bits[word]!;
    while (value !== 0) {
      const low = value & -value;
      visit((word << 5) + 31 - Math.clz32(low));
      value ^= low;
    }
  }
}
