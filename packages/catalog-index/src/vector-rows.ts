import type { Rows } from './cells.ts';
import { distanceKernel, PAGE } from './distance-kernel.ts';

/**
 * The rows of the similar-sounds index, one per sound, in WebAssembly memory, for a first pass
 * that measures eight numbers at a time (distance.wat) on 16-bit numbers scaled to 16-bit
 * integers; the few nearest by it are then measured again exactly on the numbers as held
 * (`distance`). A query in a large catalog reads thousands of rows, and reading them from memory
 * is most of its time; the rows were once kept twice, as 32-bit numbers and as one-byte codes.
 *
 * A number is held as a 16-bit count of its own step from its own origin (its first value): the
 * step is the smallest power of two that keeps every value held within ±32,767 steps, so a number
 * is held to within a 65,534th of its range, and a value beyond the range coarsens that number's
 * step for every row (an exact halving of counts, so the rounding never adds up past one step).
 * The numbers are held as given, not scaled: when the scales move (similar.ts), only each number's
 * factor for the first pass changes, and the rows lose nothing.
 *
 * The first pass scales a count by its number's factor (a fraction of 32,768: the number's step
 * times its root, in units of `unit`) and rounds, so that the scaled differences of every number
 * are in the same unit, and holds each difference to ±`limit` units, which keeps a row's sum
 * within 32 bits. Rows are addressed by slot: slots 0 to size - 1 are in use, each sound's slot
 * is kept beside it, and the cells (cells.ts) move rows between slots to read them in sequence.
 * WebAssembly memory holds at most 4 GiB: rows for millions of sounds of a hundred numbers.
 */

/** Numbers the kernel reads at a time: a row is padded with zeros to a multiple of it. */
const NUMBERS_AT_A_TIME = 8;
/**
 * Rows the kernel measures per call. The memory begins with their slots and then their
 * distances (CHUNK 32-bit numbers each), then the factors and the target (a row each); the rows follow.
 */
const CHUNK = 4096;
const DISTANCES_AT = CHUNK * 4;
const FACTORS_AT = CHUNK * 8;
/** The most steps a held number is from its origin, either way. */
const FINE_LIMIT = 32_767;
/** A factor of 1 (the kernel's factors are fractions of it). */
const ONE = 32_768;

type Scan = (
  slots: number,
  distances: number,
  count: number,
  rows: number,
  stride: number,
  target: number,
  factors: number,
  limit: number,
) => void;

export class VectorRows implements Rows {
  /** Numbers per row, padding included. */
  private readonly stride: number;
  /** Where the target and the rows begin in the memory, in bytes. */
  private readonly targetAt: number;
  private readonly rowsAt: number;
  /**
   * The largest scaled difference the first pass tells apart, in units: every number's held to
   * it, so that a row's sum of squares stays within 32 bits.
   */
  readonly limit: number;
  /**
   * The rows: `stride` numbers per slot, each in steps of its `fineStep` from its `origin`; then
   * (at the start of the memory) the factors and the target. Replaced when the memory grows.
   */
  private numbers: Int16Array;
  /** Per number: the value its steps count from (its first value), and its step (0 while every value is the origin). */
  readonly origin: Float64Array;
  readonly fineStep: Float64Array;
  /** Per number: the sum of its values over the rows, as held, and of their squares. */
  readonly sums: Float64Array;
  readonly squares: Float64Array;
  /** The kernel's slots and distances (a view of the memory's beginning). */
  private words: Int32Array;
  /** The distances of the last scan. */
  private found = new Int32Array(0);
  /** Each position's slot, -1 for none. */
  slotOf = new Int32Array(0);
  /** The position at each slot in use. */
  private docAt = new Int32Array(0);
  size = 0;
  /** What each number is multiplied by for distances and cells (set with the unit by `setScale`). */
  private roots: Float64Array;
  /** The first pass's unit, in scaled numbers. */
  private unit = 1;
  /** Whether the first pass's factors are set: not until the first `setScale`. */
  scaled = false;
  /** Told of every swap of two slots' rows (by `swapSlots` or `remove`): the owner tells the cells over them. */
  swapped: ((a: number, b: number) => void) | null = null;
  private readonly memory: WebAssembly.Memory;
  private readonly scanRows: Scan;

  constructor(readonly dimensions: number) {
    this.stride = Math.ceil(dimensions / NUMBERS_AT_A_TIME) * NUMBERS_AT_A_TIME;
    this.targetAt = FACTORS_AT + 2 * this.stride;
    this.rowsAt = this.targetAt + 2 * this.stride;
    // A row's sum of squares of differences held to ±limit is at most stride × limit².
    this.limit = Math.floor(Math.sqrt((2 ** 31 - 1) / this.stride));
    this.origin = new Float64Array(dimensions);
    this.fineStep = new Float64Array(dimensions);
    this.sums = new Float64Array(dimensions);
    this.squares = new Float64Array(dimensions);
    this.roots = new Float64Array(dimensions).fill(1);
    const instance = new WebAssembly.Instance(distanceKernel);
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.scanRows = instance.exports.scan as Scan;
    this.memory.grow(Math.ceil(this.rowsAt / PAGE));
    this.numbers = new Int16Array(this.memory.buffer);
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
   * has one (which keeps its place in the cells' order), else in the next.
   */
  put(doc: number, vector: readonly number[]): void {
    // Steps made room first: a coarsened number's sums are taken again over every row as it is held.
    for (let i = 0; i < this.dimensions; i++) this.makeRoom(i, vector[i]!);
    if (this.has(doc)) this.unsum(this.slotOf[doc]!);
    else this.add(doc);
    const at = this.offsetOf(this.slotOf[doc]!);
    for (let i = 0; i < this.dimensions; i++) {
      const step = this.fineStep[i]!;
      this.numbers[at + i] = step === 0 ? 0 : Math.round((vector[i]! - this.origin[i]!) / step);
      const value = this.valueAt(at, i);
      this.sums[i] = this.sums[i]! + value;
      this.squares[i] = this.squares[i]! + value * value;
    }
  }

  /** Whether a position's row holds `vector` as it would be held if put again. */
  holds(doc: number, vector: readonly number[]): boolean {
    const at = this.offsetOf(this.slotOf[doc]!);
    for (let i = 0; i < this.dimensions; i++) {
      const step = this.fineStep[i]!;
      const difference = vector[i]! - this.origin[i]!;
      const steps = step === 0 ? (difference === 0 ? 0 : Number.NaN) : Math.round(difference / step);
      if (steps !== this.numbers[at + i]) return false;
    }
    return true;
  }

  /** Number `i` of a position's row, as held. */
  value(doc: number, i: number): number {
    return this.valueAt(this.offsetOf(this.slotOf[doc]!), i);
  }

  /** The row at a slot scaled (each number times its root), into `into`, which is returned. */
  readSlot(slot: number, into: Float32Array): Float32Array {
    const at = this.offsetOf(slot);
    for (let i = 0; i < this.dimensions; i++) into[i] = this.valueAt(at, i) * this.roots[i]!;
    return into;
  }

  /** Takes a position's row away; the last slot's row fills its place. */
  remove(doc: number): void {
    const slot = this.slotOf[doc]!;
    this.unsum(slot);
    this.swapSlots(slot, this.size - 1);
    this.size--;
    this.slotOf[doc] = -1;
  }

  swapSlots(a: number, b: number): void {
    if (a === b) return;
    const atA = this.docAt[a]!;
    const atB = this.docAt[b]!;
    swapRuns(this.numbers, this.offsetOf(a), this.offsetOf(b), this.stride);
    this.docAt[a] = atB;
    this.slotOf[atB] = a;
    this.docAt[b] = atA;
    this.slotOf[atA] = b;
    this.swapped?.(a, b);
  }

  /**
   * Sets what each number is multiplied by (`roots`), and the first pass's unit in scaled
   * numbers: a difference of `limit` units is as far as it tells apart.
   */
  setScale(roots: Float64Array, unit: number): void {
    this.roots = roots;
    this.unit = unit;
    this.scaled = true;
    for (let i = 0; i < this.dimensions; i++) this.setFactor(i);
  }

  /**
   * The first pass's squared distances between the rows at `slots` (null: every slot in use, in
   * order) and the one at slot `target` (in units squared), in their order. The array is reused
   * by the next scan.
   */
  scan(slots: Int32Array | null, target: number): Int32Array {
    const count = slots === null ? this.size : slots.length;
    if (this.found.length < count) this.found = new Int32Array(Math.ceil(count * 1.25));
    const { words, numbers, stride } = this;
    const factors = FACTORS_AT / 2;
    const scaled = this.targetAt / 2;
    const at = this.offsetOf(target);
    for (let i = 0; i < this.dimensions; i++)
      numbers[scaled + i] = scaledCount(numbers[at + i]!, numbers[factors + i]!);
    for (let start = 0; start < count; start += CHUNK) {
      const chunk = Math.min(CHUNK, count - start);
      if (slots === null) for (let i = 0; i < chunk; i++) words[i] = start + i;
      else words.set(slots.subarray(start, start + chunk));
      this.scanRows(0, DISTANCES_AT, chunk, this.rowsAt, 2 * stride, this.targetAt, FACTORS_AT, this.limit);
      this.found.set(words.subarray(CHUNK, CHUNK + chunk), start);
    }
    return this.found;
  }

  /** The squared distance between the scaled numbers at two slots, as held. */
  distance(slot: number, target: number): number {
    const { numbers, fineStep, roots } = this;
    const a = this.offsetOf(slot);
    const b = this.offsetOf(target);
    let sum = 0;
    for (let i = 0; i < this.dimensions; i++) {
      const difference = (numbers[a + i]! - numbers[b + i]!) * fineStep[i]! * roots[i]!;
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
    // Grown by a quarter at a time: every spare row costs its numbers.
    if (doc >= this.slotOf.length) this.reservePositions(Math.max(1024, Math.ceil((doc + 1) * 1.25)));
    if (this.size === this.capacity) this.reserveRows(Math.max(1024, Math.ceil((this.size + 1) * 1.25)));
    this.slotOf[doc] = this.size;
    this.docAt[this.size++] = doc;
  }

  /** The first of a slot's numbers in `numbers`. */
  private offsetOf(slot: number): number {
    return this.rowsAt / 2 + slot * this.stride;
  }

  private valueAt(at: number, i: number): number {
    return this.origin[i]! + this.numbers[at + i]! * this.fineStep[i]!;
  }

  /** Takes a slot's numbers out of the sums. */
  private unsum(slot: number): void {
    const at = this.offsetOf(slot);
    for (let i = 0; i < this.dimensions; i++) {
      const value = this.valueAt(at, i);
      this.sums[i] = this.sums[i]! - value;
      this.squares[i] = this.squares[i]! - value * value;
    }
  }

  /**
   * Makes number `i`'s step large enough to hold `value`: the first value is the origin; the
   * first other value sets a step; a value out of reach doubles it as often as needed, every
   * row's steps halved as often (rounded), and the number's sums and factor taken again.
   */
  private makeRoom(i: number, value: number): void {
    if (this.size === 0 && this.fineStep[i] === 0) this.origin[i] = value;
    const distance = Math.abs(value - this.origin[i]!);
    const step = this.fineStep[i]!;
    if (step === 0 ? distance === 0 : Math.round(distance / step) <= FINE_LIMIT) return;
    let wider = step === 0 ? 2 ** Math.ceil(Math.log2(distance / FINE_LIMIT)) : step;
    while (Math.round(distance / wider) > FINE_LIMIT) wider *= 2;
    const { numbers } = this;
    let sum = 0;
    let squares = 0;
    for (let slot = 0, at = this.offsetOf(0) + i; slot < this.size; slot++, at += this.stride) {
      if (step > 0) numbers[at] = Math.round((numbers[at]! * step) / wider);
      const held = this.origin[i]! + numbers[at]! * wider;
      sum += held;
      squares += held * held;
    }
    this.fineStep[i] = wider;
    this.sums[i] = sum;
    this.squares[i] = squares;
    if (this.scaled) this.setFactor(i);
  }

  /**
   * Number `i`'s factor: its step scaled, in units, as a fraction of ONE. A number whose step
   * is more than a unit (a range thousands of times its spread) has the largest factor: the
   * first pass then counts it for less than it should, and the second measures it right.
   */
  private setFactor(i: number): void {
    const factor = Math.round((this.fineStep[i]! * this.roots[i]! * ONE) / this.unit);
    this.numbers[FACTORS_AT / 2 + i] = Math.min(ONE - 1, factor);
  }

  private reservePositions(count: number): void {
    if (count <= this.slotOf.length) return;
    const slotOf = new Int32Array(count).fill(-1);
    slotOf.set(this.slotOf);
    this.slotOf = slotOf;
  }

  /** Grows the memory (which grows in place: the views are made again). */
  private reserveRows(count: number): void {
    if (count <= this.capacity) return;
    const pages = Math.ceil((this.rowsAt + count * this.stride * 2) / PAGE);
    const more = pages - this.memory.buffer.byteLength / PAGE;
    if (more > 0) this.memory.grow(more);
    this.numbers = new Int16Array(this.memory.buffer);
    this.words = new Int32Array(this.memory.buffer, 0, 2 * CHUNK);
    const docAt = new Int32Array(count);
    docAt.set(this.docAt.subarray(0, this.size));
    this.docAt = docAt;
  }
}

/** A count times a factor, as the kernel scales it (i16x8.q15mulr_sat_s: factors are never negative). */
export function scaledCount(count: number, factor: number): number {
  return (count * factor + 16_384) >> 15;
}

/** Swaps `length` numbers at `a` with as many at `b` (the runs do not overlap). */
function swapRuns(array: Int16Array, a: number, b: number, length: number): void {
  for (let i = 0; i < length; i++) {
    const value = array[a + i]!;
    array[a + i] = array[b + i]!;
    array[b + i] = value;
  }
}
