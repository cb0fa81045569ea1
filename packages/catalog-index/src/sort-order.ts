import { grown } from './posting.ts';

/** Compares two positions; never 0 for two different sounds (ties are broken by id). */
export type Compare = (a: number, b: number) => number;

/**
 * The catalog in one sort order, ascending, with its tiebreak: `order[rank]` is a position and
 * `rank[position]` where it stands. Descending is the same array read from the end, which is the
 * API's rule (ties broken by id in the direction of the sort). Kept up to date one sound at a time:
 * a sound that moves shifts only the sounds between its old and new places.
 */
export class SortOrder {
  order = new Uint32Array(0);
  rank = new Uint32Array(0);
  size = 0;

  constructor(private readonly compare: Compare) {}

  /** Sorts these positions from scratch (a first load, or a large batch of new sounds), in place. */
  rebuild(positions: number[], capacity: number): void {
    this.set(positions.sort(this.compare), capacity);
  }

  /** Takes these positions as the order, already sorted (sortByNumber, sortByText). */
  set(sorted: ArrayLike<number>, capacity: number): void {
    this.order = new Uint32Array(Math.max(capacity, sorted.length));
    this.order.set(sorted);
    this.size = sorted.length;
    this.rank = new Uint32Array(this.order.length);
    for (let i = 0; i < this.size; i++) this.rank[this.order[i]!] = i;
  }

  insert(doc: number): void {
    this.reserve(Math.max(this.size + 1, doc + 1));
    const at = this.firstAfter(doc, 0, this.size);
    this.order.copyWithin(at + 1, at, this.size);
    this.order[at] = doc;
    this.size++;
    this.renumber(at, this.size - 1);
  }

  remove(doc: number): void {
    const at = this.rank[doc]!;
    this.order.copyWithin(at, at + 1, this.size);
    this.size--;
    this.renumber(at, this.size - 1);
  }

  /** Puts a sound whose sort value changed back in its place. */
  move(doc: number): void {
    const from = this.rank[doc]!;
    const order = this.order;
    if (from > 0 && this.compare(doc, order[from - 1]!) < 0) {
      const to = this.firstAfter(doc, 0, from);
      order.copyWithin(to + 1, to, from);
      order[to] = doc;
      this.renumber(to, from);
    } else if (from + 1 < this.size && this.compare(doc, order[from + 1]!) > 0) {
      const to = this.firstAfter(doc, from + 1, this.size) - 1;
      order.copyWithin(from, from + 1, to + 1);
      order[to] = doc;
      this.renumber(from, to);
    }
  }

  /** The first index in [low, high) whose sound sorts after `doc`. */
  private firstAfter(doc: number, low: number, high: number): number {
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(this.order[middle]!, doc) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private renumber(from: number, to: number): void {
    for (let i = from; i <= to; i++) this.rank[this.order[i]!] = i;
  }

  private reserve(capacity: number): void {
    if (this.order.length < capacity) this.order = grown(this.order, capacity * 2);
    if (this.rank.length < capacity) this.rank = grown(this.rank, capacity * 2);
  }
}

/** Two texts in JavaScript's order of strings (UTF-16 code units): the API's order of names and ids. */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Which of a number's two 32-bit words holds its low bits: 0 on a little-endian machine. */
const LOW = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;

/**
 * `positions` sorted by their numbers in `values`, ascending, positions of equal numbers left in
 * the order given: what a stable sort by `values[a] - values[b]` gives, without a comparison. A
 * least-significant-digit radix sort over each number's 64 bits, 16 at a time, made to order as
 * the numbers do (negative numbers' bits flipped, positive ones' sign bit set; -0 counts as 0).
 * Four passes over the positions rather than about 20 comparisons each: a first load's orders.
 */
export function sortByNumber(positions: ArrayLike<number>, values: Float64Array): Uint32Array {
  const count = positions.length;
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  const keys = new Uint32Array(count * 2);
  let order = Uint32Array.from(positions);
  for (let i = 0; i < count; i++) {
    const doc = order[i]!;
    // Zero's key: 0 with the sign bit set, whether it was +0 or -0.
    if (values[doc] === 0) {
      keys[i * 2 + 1] = 0x8000_0000;
      continue;
    }
    const low = bits[doc * 2 + LOW]!;
    const high = bits[doc * 2 + 1 - LOW]!;
    const negative = high >>> 31 === 1;
    keys[i * 2] = negative ? ~low : low;
    keys[i * 2 + 1] = negative ? ~high : high | 0x8000_0000;
  }
  let keyOf = keys;
  let next = new Uint32Array(count);
  let nextKeys = new Uint32Array(count * 2);
  const starts = new Uint32Array(65_536);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    starts.fill(0);
    for (let i = 0; i < count; i++) starts[(keyOf[i * 2 + word]! >>> shift) & 0xffff]!++;
    // A digit all numbers share moves nothing.
    if (count > 0 && starts[(keyOf[word]! >>> shift) & 0xffff] === count) continue;
    countsToStarts(starts);
    for (let i = 0; i < count; i++) {
      const to = starts[(keyOf[i * 2 + word]! >>> shift) & 0xffff]!++;
      next[to] = order[i]!;
      nextKeys[to * 2] = keyOf[i * 2]!;
      nextKeys[to * 2 + 1] = keyOf[i * 2 + 1]!;
    }
    [order, next] = [next, order];
    [keyOf, nextKeys] = [nextKeys, keyOf];
  }
  return order;
}

/** UTF-16 units of each text a radix sort orders by (sortByText); texts alike that far are then compared. */
const TEXT_KEY_UNITS = 8;

/**
 * `positions` sorted by their texts (`texts[position]`) in byText's order, positions of equal texts
 * left in the order given: what a stable sort by byText gives, with fewer comparisons. A
 * least-significant-digit radix sort over each text's first TEXT_KEY_UNITS units (a missing unit
 * counts as 0, before every other), then a stable comparison sort of each run of texts alike that
 * far (a run of a shorter text and a longer one with 0 units is one of them).
 */
export function sortByText(positions: ArrayLike<number>, texts: readonly string[]): Uint32Array {
  const count = positions.length;
  const units = TEXT_KEY_UNITS;
  let order = Uint32Array.from(positions);
  let keys = new Uint16Array(count * units);
  for (let i = 0; i < count; i++) {
    const text = texts[order[i]!]!;
    const length = Math.min(units, text.length);
    for (let unit = 0; unit < length; unit++) keys[i * units + unit] = text.charCodeAt(unit);
  }
  let next = new Uint32Array(count);
  let nextKeys = new Uint16Array(count * units);
  const starts = new Uint32Array(65_536);
  for (let unit = units - 1; unit >= 0; unit--) {
    starts.fill(0);
    for (let i = 0; i < count; i++) starts[keys[i * units + unit]!]!++;
    // A unit all texts share moves nothing.
    if (count > 0 && starts[keys[unit]!] === count) continue;
    countsToStarts(starts);
    for (let i = 0; i < count; i++) {
      const to = starts[keys[i * units + unit]!]!++;
      next[to] = order[i]!;
      for (let key = 0; key < units; key++) nextKeys[to * units + key] = keys[i * units + key]!;
    }
    [order, next] = [next, order];
    [keys, nextKeys] = [nextKeys, keys];
  }
  const alike = (a: number, b: number) => {
    for (let unit = 0; unit < units; unit++) if (keys[a * units + unit] !== keys[b * units + unit]) return false;
    return true;
  };
  for (let from = 0; from < count; ) {
    let to = from + 1;
    while (to < count && alike(from, to)) to++;
    if (to - from > 1) {
      const run = Array.from(order.subarray(from, to)).sort((a, b) => byText(texts[a]!, texts[b]!));
      order.set(run, from);
    }
    from = to;
  }
  return order;
}

/** A radix pass's counts per digit turned, in place, into where each digit's run starts. */
function countsToStarts(starts: Uint32Array): void {
  for (let digit = 0, at = 0; digit < starts.length; digit++) {
    const size = starts[digit]!;
    starts[digit] = at;
    at += size;
  }
}
