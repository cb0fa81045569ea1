import type { Rows } from './cells.ts';
import { distanceKernel, PAGE } from './distance-kernel.ts';

/**
 * The rows of the similar-sounds index, one per sound, twice: as given, to 16 bits (`fine`), and
 * as codes of one byte per number in WebAssembly memory (`codes`), for a first pass that sums
 * sixteen numbers at a time (distance.wat). A query in a large catalog reads thousands of rows,
 * and reading them from memory was most of its time: codes are a quarter of the bytes. The few
 * nearest by codes are then measured again on the numbers as held (`distance`).
 *
 * A number is held as a 16-bit count of its own step from its own origin (its first value): the
 * step is the smallest power of two that keeps every value held within ±32,767 steps, so a number
 * is held to within a 65,534th of its range, and a value beyond the range coarsens that number's
 * step for every row (an exact halving of codes, so the rounding never adds up past one step).
 * The numbers are held as given, not scaled: when the scales move (similar.ts), only the codes
 * are made again, from these, and the rows lose nothing. Half the bytes of 32-bit numbers, which
 * were the largest part of a big catalog's memory.
 *
 * A code is a scaled number's distance from the catalog's middle (`centre`) in steps of `step`,
 * rounded and held to ±127; the same step for every number keeps the codes' distance proportional
 * to the scaled numbers'. Rows are addressed by slot: slots 0 to size - 1 are in use, each sound's
 * slot is kept beside it, and the cells (cells.ts) move rows between slots to read them in
 * sequence. WebAssembly memory holds at most 4 GiB: codes for tens of millions of sounds of a
 * hundred numbers.
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
/** The most steps a held number is from its origin, either way. */
const FINE_LIMIT = 32_767;

type Scan = (slots: number, distances: number, count: number, rows: number, stride: number, target: number) => void;

export class VectorRows implements Rows {
  /** Bytes per code row, padding included. */
  readonly codeStride: number;
  /** The numbers as held: `dimensions` per slot, each in steps of its `fineStep` from its `origin`. */
  private fine = new Int16Array(0);
  /** Per number: the value its steps count from (its first value), and its step (0 while every value is the origin). */
  private readonly origin: Float64Array;
  readonly fineStep: Float64Array;
  /** Per number: the sum of its values over the rows, as held, and of their squares. */
  readonly sums: Float64Array;
  readonly squares: Float64Array;
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
  /** What each number is multiplied by for distances, codes and cells (set with the codes' centre and step). */
  private roots: Float64Array;
  /** The middle codes are measured from (set with the step by `setCoding`), scaled. */
  centre: Float64Array;
  private step = 1;
  /** Whether codes are kept: not until the first `setCoding` (a first load codes every row once, after it). */
  coded = false;
  private readonly memory: WebAssembly.Memory;
  private readonly scanRows: Scan;

  constructor(readonly dimensions: number) {
    this.codeStride = Math.ceil(dimensions / BYTES_AT_A_TIME) * BYTES_AT_A_TIME;
    this.origin = new Float64Array(dimensions);
    this.fineStep = new Float64Array(dimensions);
    this.sums = new Float64Array(dimensions);
    this.squares = new Float64Array(dimensions);
    this.roots = new Float64Array(dimensions).fill(1);
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

  /**
   * Holds `vector` (finite numbers, `dimensions` of them) as a position's row, in its slot if it
   * has one (which keeps its place in the cells' order), else in the next; codes it if codes are kept.
   */
  put(doc: number, vector: readonly number[]): void {
    // Steps made room first: a coarsened number's sums are taken again over every row as it is held.
    for (let i = 0; i < this.dimensions; i++) this.makeRoom(i, vector[i]!);
    if (this.has(doc)) this.unsum(this.slotOf[doc]!);
    else this.add(doc);
    const at = this.slotOf[doc]! * this.dimensions;
    for (let i = 0; i < this.dimensions; i++) {
      const step = this.fineStep[i]!;
      this.fine[at + i] = step === 0 ? 0 : Math.round((vector[i]! - this.origin[i]!) / step);
      const value = this.valueAt(at, i);
      this.sums[i] = this.sums[i]! + value;
      this.squares[i] = this.squares[i]! + value * value;
    }
    if (this.coded) this.encodeSlot(this.slotOf[doc]!);
  }

  /** Whether a position's row holds `vector` as it would be held if put again. */
  holds(doc: number, vector: readonly number[]): boolean {
    const at = this.slotOf[doc]! * this.dimensions;
    for (let i = 0; i < this.dimensions; i++) {
      const step = this.fineStep[i]!;
      const difference = vector[i]! - this.origin[i]!;
      const steps = step === 0 ? (difference === 0 ? 0 : Number.NaN) : Math.round(difference / step);
      if (steps !== this.fine[at + i]) return false;
    }
    return true;
  }

  /** Number `i` of a position's row, as held. */
  value(doc: number, i: number): number {
    return this.valueAt(this.slotOf[doc]! * this.dimensions, i);
  }

  /** A position's row scaled (each number times its root), into `into`, which is returned. */
  read(doc: number, into: Float32Array): Float32Array {
    const at = this.slotOf[doc]! * this.dimensions;
    for (let i = 0; i < this.dimensions; i++) into[i] = this.valueAt(at, i) * this.roots[i]!;
    return into;
  }

  /** Takes a position's row away; the last slot's row fills its place. */
  remove(doc: number): void {
    this.unsum(this.slotOf[doc]!);
    this.swap(this.docAt[this.size - 1]!, this.slotOf[doc]!);
    this.size--;
    this.slotOf[doc] = -1;
  }

  swap(doc: number, slot: number): void {
    const from = this.slotOf[doc]!;
    if (from === slot) return;
    const other = this.docAt[slot]!;
    swapRuns(this.fine, from * this.dimensions, slot * this.dimensions, this.dimensions);
    swapRuns(this.codes, from * this.codeStride, slot * this.codeStride, this.codeStride);
    this.docAt[slot] = doc;
    this.slotOf[doc] = slot;
    this.docAt[from] = other;
    this.slotOf[other] = from;
  }

  /**
   * Sets what each number is multiplied by (`roots`), and how the scaled numbers become codes
   * (`centre` and `step`), and codes every row again.
   */
  setCoding(roots: Float64Array, centre: Float64Array, step: number): void {
    this.roots = roots;
    this.centre = centre;
    this.step = step;
    this.coded = true;
    for (let slot = 0; slot < this.size; slot++) this.encodeSlot(slot);
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

  /** The squared distance between the scaled numbers at two slots, as held. */
  distance(slot: number, target: number): number {
    const d = this.dimensions;
    const { fine, fineStep, roots } = this;
    let sum = 0;
    for (let i = 0; i < d; i++) {
      const difference = (fine[slot * d + i]! - fine[target * d + i]!) * fineStep[i]! * roots[i]!;
      sum += difference * difference;
    }
    return sum;
  }

  /**
   * Room for positions below `count` and as many rows, made at once: a first load that knows the
   * catalog's size copies nothing while it grows and leaves no spare room.
   */
  reserve(count: number): void {
    this.reservePositions(count);
    this.reserveRows(count);
  }

  /** Gives a position without a row the next slot. */
  private add(doc: number): void {
    // Grown by a quarter at a time: every spare row costs its numbers and its codes.
    if (doc >= this.slotOf.length) this.reservePositions(Math.max(1024, Math.ceil((doc + 1) * 1.25)));
    if (this.size === this.capacity) this.reserveRows(Math.max(1024, Math.ceil((this.size + 1) * 1.25)));
    this.slotOf[doc] = this.size;
    this.docAt[this.size++] = doc;
  }

  private valueAt(at: number, i: number): number {
    return this.origin[i]! + this.fine[at + i]! * this.fineStep[i]!;
  }

  /** Takes a slot's numbers out of the sums. */
  private unsum(slot: number): void {
    const at = slot * this.dimensions;
    for (let i = 0; i < this.dimensions; i++) {
      const value = this.valueAt(at, i);
      this.sums[i] = this.sums[i]! - value;
      this.squares[i] = this.squares[i]! - value * value;
    }
  }

  /**
   * Makes number `i`'s step large enough to hold `value`: the first value is the origin; the
   * first other value sets a step; a value out of reach doubles it as often as needed, every
   * row's steps halved as often (rounded), and the number's sums and codes taken again (so they
   * stay those of the numbers as held).
   */
  private makeRoom(i: number, value: number): void {
    if (this.size === 0 && this.fineStep[i] === 0) this.origin[i] = value;
    const distance = Math.abs(value - this.origin[i]!);
    const step = this.fineStep[i]!;
    if (step === 0 ? distance === 0 : Math.round(distance / step) <= FINE_LIMIT) return;
    let wider = step === 0 ? 2 ** Math.ceil(Math.log2(distance / FINE_LIMIT)) : step;
    while (Math.round(distance / wider) > FINE_LIMIT) wider *= 2;
    const d = this.dimensions;
    const { fine } = this;
    let sum = 0;
    let squares = 0;
    for (let slot = 0, at = i; slot < this.size; slot++, at += d) {
      if (step > 0) fine[at] = Math.round((fine[at]! * step) / wider);
      const held = this.origin[i]! + fine[at]! * wider;
      sum += held;
      squares += held * held;
      if (this.coded) this.codes[slot * this.codeStride + i] = this.codeOf(held, i);
    }
    this.fineStep[i] = wider;
    this.sums[i] = sum;
    this.squares[i] = squares;
  }

  private encodeSlot(slot: number): void {
    const d = this.dimensions;
    for (let i = 0; i < d; i++) this.codes[slot * this.codeStride + i] = this.codeOf(this.valueAt(slot * d, i), i);
  }

  /** The code of `value` as number `i`. */
  private codeOf(value: number, i: number): number {
    const code = Math.round((value * this.roots[i]! - this.centre[i]!) / this.step);
    return Math.max(-127, Math.min(127, code));
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
    const fine = new Int16Array(count * this.dimensions);
    fine.set(this.fine.subarray(0, this.size * this.dimensions));
    this.fine = fine;
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
function swapRuns(array: Int16Array | Int8Array, a: number, b: number, length: number): void {
  for (let i = 0; i < length; i++) {
    const value = array[a + i]!;
    array[a + i] = array[b + i]!;
    array[b + i] = value;
  }
}
