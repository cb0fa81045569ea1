import { forEachBit, grown } from './posting.ts';

/** Bytes of strings no sound holds any more, past which a column is written out again (tuned: the package's README). */
const COMPACT_AFTER_BYTES = 1 << 20;

/**
 * A column of strings (or nulls), one per position, kept as UTF-8 bytes in one buffer outside
 * V8's heap and read back as strings when asked. As JavaScript strings the index's text was
 * hundreds of thousands of heap objects that every full garbage collection marks again; under
 * load those collections and their marking were what the longest event-loop turns, and so the
 * tail latency, came from. A buffer is one object.
 *
 * Bytes are only appended: a changed string is written after the others and its old bytes left
 * unused, until they are many and the column is written out again without them. A string set
 * again unchanged (every download reports its sound's whole row) writes nothing.
 */
export class TextColumn {
  private bytes = Buffer.alloc(0);
  private used = 0;
  private unused = 0;
  private starts = new Uint32Array(0);
  /** Length in bytes; -1 for null. */
  private lengths = new Int32Array(0);

  /** Room for `capacity` positions. */
  reserve(capacity: number): void {
    if (capacity <= this.starts.length) return;
    const before = this.lengths.length;
    this.starts = grown(this.starts, capacity);
    this.lengths = grown(this.lengths, capacity);
    this.lengths.fill(-1, before);
  }

  get(doc: number): string | null {
    const length = this.lengths[doc]!;
    if (length < 0) return null;
    const start = this.starts[doc]!;
    return this.bytes.toString('utf8', start, start + length);
  }

  set(doc: number, value: string | null): void {
    const before = this.lengths[doc]!;
    if (value === null) {
      if (before > 0) this.unused += before;
      this.lengths[doc] = -1;
      return;
    }
    // Written after the others first, then compared with what the position holds.
    this.room(value.length * 3);
    const length = this.bytes.write(value, this.used, 'utf8');
    const start = this.starts[doc]!;
    if (before === length && this.bytes.compare(this.bytes, start, start + length, this.used, this.used + length) === 0)
      return;
    if (before > 0) this.unused += before;
    this.starts[doc] = this.used;
    this.lengths[doc] = length;
    this.used += length;
    if (this.unused > COMPACT_AFTER_BYTES && this.unused > this.used / 2) this.compact();
  }

  /** Gives back the spare room of a first load, whose size was not known in bytes beforehand. */
  trim(): void {
    if (this.bytes.length > this.used * 1.1) this.compact();
  }

  /** Room for `more` bytes after those used. */
  private room(more: number): void {
    if (this.used + more <= this.bytes.length) return;
    const larger = Buffer.allocUnsafe(Math.max(4096, (this.used + more) * 2));
    this.bytes.copy(larger, 0, 0, this.used);
    this.bytes = larger;
  }

  /** Writes the strings held out again, in position order, without the unused bytes. */
  private compact(): void {
    const live = this.used - this.unused;
    const bytes = Buffer.allocUnsafe(Math.max(4096, Math.ceil(live * 1.25)));
    let used = 0;
    for (let doc = 0; doc < this.lengths.length; doc++) {
      const length = this.lengths[doc]!;
      if (length <= 0) continue;
      this.bytes.copy(bytes, used, this.starts[doc]!, this.starts[doc]! + length);
      this.starts[doc] = used;
      used += length;
    }
    this.bytes = bytes;
    this.used = used;
    this.unused = 0;
  }
}

/**
 * Strings that many sounds share (tags, licences), each kept once and named by a small number:
 * a column then holds numbers, not references for the garbage collector to follow.
 */
export class SharedStrings {
  private readonly numbers = new Map<string, number>();
  readonly texts: string[] = [];

  numberOf(text: string): number {
    let number = this.numbers.get(text);
    if (number === undefined) {
      number = this.texts.length;
      this.numbers.set(text, number);
      this.texts.push(text);
    }
    return number;
  }

  /** The number of a string kept, without keeping it when it is not. */
  find(text: string): number | undefined {
    return this.numbers.get(text);
  }
}

/**
 * A list of shared strings per position (a sound's tags), as their numbers in one typed array.
 * Like TextColumn, appended to, with a list set again unchanged writing nothing.
 */
export class StringListColumn {
  readonly shared = new SharedStrings();
  private numbers = new Uint32Array(0);
  private used = 0;
  private unused = 0;
  private starts = new Uint32Array(0);
  private counts = new Uint16Array(0);

  reserve(capacity: number): void {
    if (capacity <= this.starts.length) return;
    this.starts = grown(this.starts, capacity);
    this.counts = grown(this.counts, capacity);
  }

  /**
   * The strings at a position, in the order they were set. Pushed into an empty array: one made
   * at its length (new Array(n)) is holey to V8, which JSON.stringify writes more slowly.
   */
  get(doc: number): string[] {
    const start = this.starts[doc]!;
    const end = start + this.counts[doc]!;
    const texts = this.shared.texts;
    const list: string[] = [];
    for (let i = start; i < end; i++) list.push(texts[this.numbers[i]!]!);
    return list;
  }

  /** Adds one to `perNumber` at the number of each string of every position set in `bits`. */
  countOver(bits: Uint32Array, perNumber: Uint32Array): void {
    forEachBit(bits, (doc) => this.countInto(doc, perNumber));
  }

  /** Adds one to `perNumber` at the number of each string at a position. */
  countInto(doc: number, perNumber: Uint32Array): void {
    const start = this.starts[doc]!;
    const end = start + this.counts[doc]!;
    for (let i = start; i < end; i++) perNumber[this.numbers[i]!]!++;
  }

  set(doc: number, list: string[]): void {
    if (this.used + list.length > this.numbers.length)
      this.numbers = grown(this.numbers, Math.max(1024, (this.used + list.length) * 2));
    for (let i = 0; i < list.length; i++) this.numbers[this.used + i] = this.shared.numberOf(list[i]!);
    const before = this.counts[doc]!;
    const start = this.starts[doc]!;
    if (before === list.length && sameNumbers(this.numbers, start, this.used, before)) return;
    this.unused += before;
    this.starts[doc] = this.used;
    this.counts[doc] = list.length;
    this.used += list.length;
    if (this.unused > COMPACT_AFTER_BYTES / 4 && this.unused > this.used / 2) this.compact();
  }

  trim(): void {
    if (this.numbers.length > this.used * 1.1) this.compact();
  }

  private compact(): void {
    const numbers = new Uint32Array(Math.max(1024, Math.ceil((this.used - this.unused) * 1.25)));
    let used = 0;
    for (let doc = 0; doc < this.counts.length; doc++) {
      const count = this.counts[doc]!;
      numbers.set(this.numbers.subarray(this.starts[doc]!, this.starts[doc]! + count), used);
      this.starts[doc] = used;
      used += count;
    }
    this.numbers = numbers;
    this.used = used;
    this.unused = 0;
  }
}

function sameNumbers(numbers: Uint32Array, a: number, b: number, count: number): boolean {
  for (let i = 0; i < count; i++) if (numbers[a + i] !== numbers[b + i]) return false;
  return true;
}
