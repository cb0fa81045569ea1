import { DESCRIPTOR_LENGTH, DESCRIPTOR_WEIGHTS } from '../../audio/analyze/descriptors.ts';
import { Cells, type Rows } from './cells.ts';

/**
 * Nearest neighbours over the sounds' audio descriptors, from memory. Each number of a
 * descriptor is divided by its standard deviation over the catalog (kept as running sums, so a
 * change costs DESCRIPTOR_LENGTH additions), weighted by its group (DESCRIPTOR_WEIGHTS), and the
 * distance is Euclidean. A small catalog's query reads every described sound; from CELLS_FROM
 * sounds on, a query reads a bounded number of sounds from the cells nearest to it (cells.ts),
 * which follow every change (docs/performance.md gives the time and the recall).
 */

const WEIGHTS = Float64Array.from(DESCRIPTOR_WEIGHTS);
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, weight) => sum + weight, 0);

export interface Neighbour {
  doc: number;
  /** 1 for the same descriptors, falling towards 0 with distance; a typical unrelated pair is about 0.37. */
  similarity: number;
}

const MIN_ROOT = 1e-6;
/** Below this many described sounds every one is read (under a millisecond); from it on, cells are built. */
const CELLS_FROM = 20_000;
/**
 * Vectors a query reads from the nearest cells (cells.ts): VISITS_PER_ROOT × √n, at least
 * MIN_VISITS. The recall at 10 this gives against reading every sound is in docs/performance.md.
 */
const VISITS_PER_ROOT = 20;
const MIN_VISITS = 2000;

export class SimilarityIndex implements Rows {
  /**
   * Each described sound's numbers multiplied by `roots` (the square root of each number's
   * scale), DESCRIPTOR_LENGTH per slot: distances are plain sums of squares. Only this copy is
   * kept (the largest part of a big catalog's memory); a number as given is the stored one over
   * its root. Slots 0 to size - 1 are in use; the cells arrange them in the order queries read them.
   */
  data = new Float32Array(0);
  /** The roots the rows are scaled by; all rows are scaled again when a scale moves past 1 %. */
  private roots: Float64Array = new Float64Array(DESCRIPTOR_LENGTH).fill(1);
  /** The described position at each slot, and each position's slot (-1 for none). */
  private docAt = new Int32Array(0);
  slotOf = new Int32Array(0);
  private readonly sums = new Float64Array(DESCRIPTOR_LENGTH);
  private readonly squares = new Float64Array(DESCRIPTOR_LENGTH);
  private count = 0;
  /**
   * The inverted file over the rows for large catalogs (cells.ts), and the count it was built
   * for; while a new one is built for a grown or shrunk catalog, the old one answers.
   */
  private cells: Cells | null = null;
  private building: Cells | null = null;
  private cellsBuiltFor = 0;

  /** Sets (or, with null, clears) the descriptors of the sound at a position. */
  set(doc: number, vector: readonly number[] | null): void {
    const usable = vector !== null && vector.length === DESCRIPTOR_LENGTH && vector.every(Number.isFinite);
    // A row read again for another reason (a download) brings the same numbers: nothing to do.
    if (usable && this.has(doc) && this.holds(doc, vector)) return;
    if (!usable) {
      this.clear(doc);
      return;
    }
    // A changed row is written in its slot (which keeps its place in the cells' order); a new one takes the next.
    if (this.has(doc)) {
      this.unsum(this.slotOf[doc]!);
    } else {
      // Grown by a quarter at a time: at a million sounds every spare row costs 424 bytes.
      if (doc >= this.slotOf.length || this.count === this.docAt.length) this.reserve(Math.max(1024, Math.ceil((Math.max(doc, this.count) + 1) * 1.25)));
      this.slotOf[doc] = this.count;
      this.docAt[this.count++] = doc;
    }
    const at = this.slotOf[doc]! * DESCRIPTOR_LENGTH;
    for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
      const value = vector[i]!;
      this.data[at + i] = value * this.roots[i]!;
      this.sums[i] = this.sums[i]! + value;
      this.squares[i] = this.squares[i]! + value * value;
    }
    this.cells?.add(doc);
    this.building?.add(doc);
  }

  clear(doc: number): void {
    if (!this.has(doc)) return;
    this.cells?.remove(doc);
    this.building?.remove(doc);
    const slot = this.slotOf[doc]!;
    this.unsum(slot);
    // The last slot's row fills the gap.
    this.swap(this.docAt[this.count - 1]!, slot);
    this.count--;
    this.slotOf[doc] = -1;
  }

  swap(doc: number, slot: number): void {
    const from = this.slotOf[doc]!;
    if (from === slot) return;
    const other = this.docAt[slot]!;
    const D = DESCRIPTOR_LENGTH;
    for (let i = 0; i < D; i++) {
      const value = this.data[slot * D + i]!;
      this.data[slot * D + i] = this.data[from * D + i]!;
      this.data[from * D + i] = value;
    }
    this.docAt[slot] = doc;
    this.slotOf[doc] = slot;
    this.docAt[from] = other;
    this.slotOf[other] = from;
  }

  /** Takes a slot's numbers out of the running sums. */
  private unsum(slot: number): void {
    const at = slot * DESCRIPTOR_LENGTH;
    for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
      const value = this.valueAt(at, i);
      this.sums[i] = this.sums[i]! - value;
      this.squares[i] = this.squares[i]! - value * value;
    }
  }

  /** How many sounds have descriptors. */
  get size(): number {
    return this.count;
  }

  has(doc: number): boolean {
    return doc < this.slotOf.length && this.slotOf[doc]! >= 0;
  }

  /**
   * Gets the cells ready now, if the catalog is large enough to need them: called once the
   * index is loaded, before the server answers, so the first queries of a large catalog do not
   * read every sound while the cells are built.
   */
  prepare(): void {
    this.rescaleIfDrifted();
    this.readyCells();
    if (this.building) {
      while (!this.building.step());
      this.cells = this.building;
      this.building = null;
    }
  }

  /**
   * The `limit` described sounds nearest to `doc`, nearest first; never `doc` itself. Small
   * catalogs read every sound; large ones read the sounds of the cells nearest to it. Each
   * candidate's distance is summed eight numbers at a time and given up as soon as it passes the
   * farthest of the best so far.
   */
  nearest(doc: number, limit: number): Neighbour[] {
    if (!this.has(doc) || limit <= 0) return [];
    this.rescaleIfDrifted();
    const rows = this.data;
    const D = DESCRIPTOR_LENGTH;
    const target = rows.slice(this.slotOf[doc]! * D, (this.slotOf[doc]! + 1) * D);
    // The best so far, kept sorted by distance: a short array beats a heap at these sizes.
    const bestDocs: number[] = [];
    const bestDistances: number[] = [];
    let worst = Infinity;
    const consider = (other: number, slot: number) => {
      if (other === doc) return;
      const distance = distanceWithin(rows, slot * D, target, worst);
      // A sound listed twice in a cell (moved away and back) is answered once.
      if (distance >= worst || bestDocs.includes(other)) return;
      let place = bestDistances.length;
      while (place > 0 && (bestDistances[place - 1]! > distance || (bestDistances[place - 1] === distance && bestDocs[place - 1]! > other))) place--;
      bestDocs.splice(place, 0, other);
      bestDistances.splice(place, 0, distance);
      if (bestDocs.length > limit) {
        bestDocs.pop();
        bestDistances.pop();
      }
      if (bestDocs.length === limit) worst = bestDistances[limit - 1]!;
    };
    const cells = this.readyCells();
    if (cells) cells.visit(target, 0, Math.max(MIN_VISITS, VISITS_PER_ROOT * Math.sqrt(this.count)), consider);
    else for (let slot = 0; slot < this.count; slot++) consider(this.docAt[slot]!, slot);
    return bestDocs.map((neighbour, i) => ({
      doc: neighbour,
      similarity: Math.round(Math.exp(-bestDistances[i]! / (2 * TOTAL_WEIGHT)) * 1e4) / 1e4,
    }));
  }

  /**
   * The cells that answer, if any; a build is started when the catalog is large and has none or
   * has changed size by half since its last. Until the first build is done, queries read every
   * sound; the cells of a later build answer once it is done, those before it until then.
   */
  private readyCells(): Cells | null {
    if (this.count < CELLS_FROM) return null;
    const stale = this.cells === null || Math.abs(this.count - this.cellsBuiltFor) > this.cellsBuiltFor / 2;
    if (stale && this.building === null) {
      const building = new Cells(this, DESCRIPTOR_LENGTH, this.docAt.subarray(0, this.count), this.slotOf.length);
      this.building = building;
      this.cellsBuiltFor = this.count;
      const step = () => {
        if (this.building !== building) return;
        if (!building.step()) {
          setImmediate(step);
          return;
        }
        this.cells = building;
        this.building = null;
      };
      step();
    }
    return this.cells;
  }

  /** A number of a row as it was given (to 32-bit precision). */
  private valueAt(at: number, i: number): number {
    return this.data[at + i]! / this.roots[i]!;
  }

  private holds(doc: number, vector: readonly number[]): boolean {
    const at = this.slotOf[doc]! * DESCRIPTOR_LENGTH;
    for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
      if (Math.abs(this.valueAt(at, i) - vector[i]!) > 1e-5 * (1 + Math.abs(vector[i]!))) return false;
    }
    return true;
  }

  /**
   * Scales every row again when a scale has moved by more than 1 % since the rows were scaled
   * (a catalog's spread moves little once it has some thousands of sounds). The cells were in the
   * old space: they are built again.
   */
  private rescaleIfDrifted(): void {
    // A number that never varies has scale 0; a tiny root keeps its values recoverable while it
    // adds nothing that matters to a distance.
    const roots = this.scales().map((scale) => Math.max(Math.sqrt(scale), MIN_ROOT));
    if (roots.every((root, i) => Math.abs(root - this.roots[i]!) <= 0.005 * Math.max(root, this.roots[i]!))) return;
    const factors = roots.map((root, i) => root / this.roots[i]!);
    for (let at = 0; at < this.count * DESCRIPTOR_LENGTH; at += DESCRIPTOR_LENGTH) {
      for (let i = 0; i < DESCRIPTOR_LENGTH; i++) this.data[at + i] = this.data[at + i]! * factors[i]!;
    }
    this.roots = roots;
    this.cells = null;
    this.building = null;
  }

  /** Per number: its weight over its variance across the catalog (a number that never varies counts for nothing). */
  private scales(): Float64Array {
    const scale = new Float64Array(DESCRIPTOR_LENGTH);
    for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
      const mean = this.sums[i]! / this.count;
      const variance = this.squares[i]! / this.count - mean * mean;
      scale[i] = variance > 1e-9 * (1 + mean * mean) ? WEIGHTS[i]! / variance : 0;
    }
    return scale;
  }

  /**
   * Room for positions below `count`, made at once: a first load that knows the catalog's size
   * copies no rows while it grows and leaves no spare ones (growing a quarter at a time held the
   * old rows and the new at once near the end, and kept spare room after).
   */
  reserveFor(count: number): void {
    if (count > this.slotOf.length) this.reserve(count);
  }

  /** Room for `capacity` positions and as many rows (the cells read the new arrays on their next call). */
  private reserve(capacity: number): void {
    const data = new Float32Array(capacity * DESCRIPTOR_LENGTH);
    data.set(this.data.subarray(0, this.count * DESCRIPTOR_LENGTH));
    this.data = data;
    const docAt = new Int32Array(capacity);
    docAt.set(this.docAt.subarray(0, this.count));
    this.docAt = docAt;
    const slotOf = new Int32Array(Math.max(capacity, this.slotOf.length)).fill(-1);
    slotOf.set(this.slotOf);
    this.slotOf = slotOf;
  }
}

/**
 * The squared distance between a row of `rows` (at `at`) and `target`, summed eight numbers at a
 * time; given up, with the sum so far, once it reaches `limit`. Written out by hand: V8 compiles
 * eight named differences to straight-line code, about twice as fast as an inner loop.
 */
function distanceWithin(rows: Float32Array, at: number, target: Float32Array, limit: number): number {
  let sum = 0;
  let i = 0;
  for (; i + 8 <= DESCRIPTOR_LENGTH; i += 8) {
    const a = rows[at + i]! - target[i]!;
    const b = rows[at + i + 1]! - target[i + 1]!;
    const c = rows[at + i + 2]! - target[i + 2]!;
    const d = rows[at + i + 3]! - target[i + 3]!;
    const e = rows[at + i + 4]! - target[i + 4]!;
    const f = rows[at + i + 5]! - target[i + 5]!;
    const g = rows[at + i + 6]! - target[i + 6]!;
    const h = rows[at + i + 7]! - target[i + 7]!;
    sum += a * a + b * b + c * c + d * d + e * e + f * f + g * g + h * h;
    if (sum >= limit) return sum;
  }
  for (; i < DESCRIPTOR_LENGTH; i++) {
    const a = rows[at + i]! - target[i]!;
    sum += a * a;
  }
  return sum;
}
