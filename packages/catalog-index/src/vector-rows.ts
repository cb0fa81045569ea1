import { squaredDistance, type Rows } from './cells.ts';
import { distanceKernel, PAGE } from './distance-kernel.ts';

/**
 * The rows of the similar-sounds index, one per sound, twice: as given (32-bit numbers, `data`),
 * and as codes of one byte per number in WebAssembly memory (`codes`), for a first pass that
 * sums sixteen numbers at a time (distance.wat). A query in a large catalog reads thousands of
 * rows, and reading them from memory was most of its time: codes are a quarter of the bytes. The
 * few nearest by codes are then measured again on the numbers as given (`distance`), so answers
 * and their similarities are those of the numbers.
 *
 * A code is a number's distance from the catalog's middle (`centre`) in steps of `step`, rounded
 * and held to ±127; the same step for every number keeps the codes' distance proportional to the
 * numbers'. Rows are addressed by slot: slots 0 to size - 1 are in use, each sound's slot is kept
 * beside it, and the cells (cells.ts) move rows between slots to read them in sequence.
 * WebAssembly memory holds at most 4 GiB: codes for tens of millions of sounds of a hundred numbers.
 */

/** Bytes the kernel reads at a time: a code row is padded with zeros to a multiple of it. */
const BYTES_AT_A_TIME = 16;
/**
 * Rows the kernel measures per call. The memory begins with their slots and then their
 * distances (CHUNK 32-bit numbers each); the codes follow.
 */
const CHUNK = 4096;
const DISTANCES_AT = CHUNK * 4;
const CODES_AT = CHUNK * 8;

type Scan = (slots: number, distances: number, count: number, rows: number, stride: number, target: number) => void;

export class VectorRows implements Rows {
  /** Bytes per code row, padding included. */
  readonly codeStride: number;
  /** The numbers as given, `dimensions` per slot. */
  data = new Float32Array(0);
  /** The codes, `codeStride` per slot; replaced when the memory grows. */
  codes: Int8Array;
  /** The kernel's slots and distances (a view of the memory's beginning). */
  private words: Int32Array;
  /** The distances of the last scan. */
  private found = new Int32Array(0);
  /** Each position's slot, -1 for none. */
  slotOf = new Int32Array(0);
  /** The position at each slot in use. */
  private docAt = new Int32Array(0);
  size = 0;
  /** The middle codes are measured from (set with the step by `setCoding`). */
  centre: Float64Array;
  private step = 1;
  /** Whether codes are kept: not until the first `setCoding` (a first load codes every row once, after it). */
  coded = false;
  private readonly memory: WebAssembly.Memory;
  private readonly scanRows: Scan;

  constructor(readonly dimensions: number) {
    this.codeStride = Math.ceil(dimensions / BYTES_AT_A_TIME) * BYTES_AT_A_TIME;
    this.centre = new Float64Array(dimensions);
    const instance = new WebAssembly.Instance(distanceKernel);
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.scanRows = instance.exports.scan as Scan;
    this.memory.grow(Math.ceil(CODES_AT / PAGE));
    this.codes = new Int8Array(this.memory.buffer, CODES_AT);
    this.words = new Int32Array(this.memory.buffer, 0, 2 * CHUNK);
  }

  /** Rows there is room for. */
  get capacity(): number {
    return this.docAt.length;
  }

  has(doc: number): boolean {
    return doc < this.slotOf.length && this.slotOf[doc]! >= 0;
  }

  /** The positions with a row, by slot. */
  get docs(): Int32Array {
    return this.docAt.subarray(0, this.size);
  }

  /** The first number of a position's row in `data`. */
  offsetOf(doc: number): number {
    return this.slotOf[doc]! * this.dimensions;
  }

  /** Gives a position without a row the next slot (its numbers are then written at `offsetOf`, and `encode`d). */
  add(doc: number): void {
    // Grown by a quarter at a time: every spare row costs its numbers and its codes.
    if (doc >= this.slotOf.length) this.reservePositions(Math.max(1024, Math.ceil((doc + 1) * 1.25)));
    if (this.size === this.capacity) this.reserveRows(Math.max(1024, Math.ceil((this.size + 1) * 1.25)));
    this.slotOf[doc] = this.size;
    this.docAt[this.size++] = doc;
  }

  /** Takes a position's row away; the last slot's row fills its place. */
  remove(doc: number): void {
    this.swap(this.docAt[this.size - 1]!, this.slotOf[doc]!);
    this.size--;
    this.slotOf[doc] = -1;
  }

  swap(doc: number, slot: number): void {
    const from = this.slotOf[doc]!;
    if (from === slot) return;
    const other = this.docAt[slot]!;
    swapRuns(this.data, from * this.dimensions, slot * this.dimensions, this.dimensions);
    swapRuns(this.codes, from * this.codeStride, slot * this.codeStride, this.codeStride);
    this.docAt[slot] = doc;
    this.slotOf[doc] = slot;
    this.docAt[from] = other;
    this.slotOf[other] = from;
  }

  /** Sets how numbers become codes, and codes every row again. */
  setCoding(centre: Float64Array, step: number): void {
    this.centre = centre;
    this.step = step;
    this.coded = true;
    for (let slot = 0; slot < this.size; slot++) this.encodeSlot(slot);
  }

  /** Codes a position's row from its numbers (after they were written). */
  encode(doc: number): void {
    if (this.coded) this.encodeSlot(this.slotOf[doc]!);
  }

  /**
   * The squared distances between the codes of the rows of `docs` and those at slot `target` (in
   * steps squared), in their order. The array is reused by the next scan.
   */
  scan(docs: ArrayLike<number>, target: number): Int32Array {
    const count = docs.length;
    if (this.found.length < count) this.found = new Int32Array(Math.ceil(count * 1.25));
    const { words, slotOf, codeStride } = this;
    for (let start = 0; start < count; start += CHUNK) {
      const chunk = Math.min(CHUNK, count - start);
      for (let i = 0; i < chunk; i++) words[i] = slotOf[docs[start + i]!]!;
      this.scanRows(0, DISTANCES_AT, chunk, CODES_AT, codeStride, CODES_AT + target * codeStride);
      this.found.set(words.subarray(CHUNK, CHUNK + chunk), start);
    }
    return this.found;
  }

  /** The squared distance between the numbers at two slots. */
  distance(slot: number, target: number): number {
    const d = this.dimensions;
    return squaredDistance(this.data, slot * d, this.data, target * d, d);
  }

  /**
   * Room for positions below `count` and as many rows, made at once: a first load that knows the
   * catalog's size copies nothing while it grows and leaves no spare room.
   */
  reserve(count: number): void {
    this.reservePositions(count);
    this.reserveRows(count);
  }

  private encodeSlot(slot: number): void {
    const d = this.dimensions;
    const inverse = 1 / this.step;
    for (let i = 0; i < d; i++) {
      const code = Math.round((this.data[slot * d + i]! - this.centre[i]!) * inverse);
      this.codes[slot * this.codeStride + i] = Math.max(-127, Math.min(127, code));
    }
  }

  private reservePositions(count: number): void {
    if (count <= this.slotOf.length) return;
    const slotOf = new Int32Array(count).fill(-1);
    slotOf.set(this.slotOf);
    this.slotOf = slotOf;
  }

  /** Grows the numbers and the codes' memory (which grows in place: `codes` is a new view of it). */
  private reserveRows(count: number): void {
    if (count <= this.capacity) return;
    const data = new Float32Array(count * this.dimensions);
    data.set(this.data.subarray(0, this.size * this.dimensions));
    this.data = data;
    const pages = Math.ceil((CODES_AT + count * this.codeStride) / PAGE);
    const more = pages - this.memory.buffer.byteLength / PAGE;
    if (more > 0) this.memory.grow(more);
    this.codes = new Int8Array(this.memory.buffer, CODES_AT);
    this.words = new Int32Array(this.memory.buffer, 0, 2 * CHUNK);
    const docAt = new Int32Array(count);
    docAt.set(this.docAt.subarray(0, this.size));
    this.docAt = docAt;
  }
}

/** Swaps `length` numbers at `a` with as many at `b` (the runs do not overlap). */
function swapRuns(array: Float32Array | Int8Array, a: number, b: number, length: number): void {
  for (let i = 0; i < length; i++) {
    const value = array[a + i]!;
    array[a + i] = array[b + i]!;
    array[b + i] = value;
  }
}
