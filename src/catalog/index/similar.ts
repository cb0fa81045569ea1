import { DESCRIPTOR_LENGTH, DESCRIPTOR_WEIGHTS } from '../../audio/analyze/descriptors.ts';
import { Cells } from './cells.ts';

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

export class SimilarityIndex {
  /**
   * Each described sound's numbers multiplied by `roots` (the square root of each number's
   * scale), DESCRIPTOR_LENGTH per position: distances are plain sums of squares. Only this copy
   * is kept (the largest part of a big catalog's memory); a number as given is the stored one over its root.
   */
  private scaled = new Float32Array(0);
  /** The roots the rows are scaled by; all rows are scaled again when a scale moves past 1 %. */
  private roots: Float64Array = new Float64Array(DESCRIPTOR_LENGTH).fill(1);
  /** The described positions, densely, and each one's place in that list (-1 for none). */
  private members = new Int32Array(0);
  private memberAt = new Int32Array(0);
  private readonly sums = new Float64Array(DESCRIPTOR_LENGTH);
  private readonly squares = new Float64Array(DESCRIPTOR_LENGTH);
  private count = 0;
  /** The inverted file over `scaled` for large catalogs (cells.ts), and the count it was built for. */
  private cells: Cells | null = null;
  private cellsBuiltFor = 0;

  /** Sets (or, with null, clears) the descriptors of the sound at a position. */
  set(doc: number, vector: readonly number[] | null): void {
    const usable = vector !== null && vector.length === DESCRIPTOR_LENGTH && vector.every(Number.isFinite);
    // A row read again for another reason (a download) brings the same numbers: nothing to do.
    if (usable && this.has(doc) && this.holds(doc, vector)) return;
    this.clear(doc);
    if (!usable) return;
    // Grown by a quarter at a time: at a million sounds every spare row costs 228 bytes.
    if (doc >= this.memberAt.length) this.reserve(Math.max(1024, Math.ceil((doc + 1) * 1.25)));
    const at = doc * DESCRIPTOR_LENGTH;
    for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
      const value = vector[i]!;
      this.scaled[at + i] = value * this.roots[i]!;
      this.sums[i] = this.sums[i]! + value;
      this.squares[i] = this.squares[i]! + value * value;
    }
    this.memberAt[doc] = this.count;
    this.members[this.count++] = doc;
    this.cells?.add(doc);
  }

  clear(doc: number): void {
    if (!this.has(doc)) return;
    const place = this.memberAt[doc]!;
    const last = this.members[--this.count]!;
    this.members[place] = last;
    this.memberAt[last] = place;
    this.memberAt[doc] = -1;
    this.cells?.remove(doc);
    const at = doc * DESCRIPTOR_LENGTH;
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
    return doc < this.memberAt.length && this.memberAt[doc]! >= 0;
  }

  /**
   * Gets the cells ready now, if the catalog is large enough to need them: called once the
   * index is loaded, before the server answers, so the first queries of a large catalog do not
   * read every sound while the cells are built.
   */
  prepare(): void {
    this.rescaleIfDrifted();
    const cells = this.readyCells();
    if (cells === null && this.cells) while (!this.cells.step());
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
    const scaled = this.scaled;
    const D = DESCRIPTOR_LENGTH;
    const target = scaled.slice(doc * D, (doc + 1) * D);
    // The best so far, kept sorted by distance: a short array beats a heap at these sizes.
    const bestDocs: number[] = [];
    const bestDistances: number[] = [];
    let worst = Infinity;
    const consider = (other: number) => {
      // A sound cleared while the cells were being listed may still be in a list: it is never an answer.
      if (other === doc || !this.has(other)) return;
      const at = other * D;
      let distance = 0;
      for (let i = 0; i < D && distance < worst; i += 8) {
        const end = Math.min(D, i + 8);
        for (let j = i; j < end; j++) {
          const difference = scaled[at + j]! - target[j]!;
          distance += difference * difference;
        }
      }
      if (distance >= worst) return;
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
    else for (let m = 0; m < this.count; m++) consider(this.members[m]!);
    return bestDocs.map((neighbour, i) => ({
      doc: neighbour,
      similarity: Math.round(Math.exp(-bestDistances[i]! / (2 * TOTAL_WEIGHT)) * 1e4) / 1e4,
    }));
  }

  /**
   * The cells when they are built and fit the catalog; otherwise null, and a build is started
   * when the catalog is large and has none or has changed size by half since its last. Until a
   * build is done, queries read every sound.
   */
  private readyCells(): Cells | null {
    if (this.count < CELLS_FROM) return null;
    const stale = this.cells === null || Math.abs(this.count - this.cellsBuiltFor) > this.cellsBuiltFor / 2;
    if (stale && (this.cells === null || this.cells.ready)) {
      const cells = new Cells(this.scaled, DESCRIPTOR_LENGTH, this.members.subarray(0, this.count), this.memberAt.length);
      this.cells = cells;
      this.cellsBuiltFor = this.count;
      const step = () => {
        if (this.cells === cells && !cells.step()) setImmediate(step);
      };
      step();
    }
    return this.cells?.ready ? this.cells : null;
  }

  /** A number of a row as it was given (to 32-bit precision). */
  private valueAt(at: number, i: number): number {
    return this.scaled[at + i]! / this.roots[i]!;
  }

  private holds(doc: number, vector: readonly number[]): boolean {
    const at = doc * DESCRIPTOR_LENGTH;
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
    for (let m = 0; m < this.count; m++) {
      const at = this.members[m]! * DESCRIPTOR_LENGTH;
      for (let i = 0; i < DESCRIPTOR_LENGTH; i++) this.scaled[at + i] = this.scaled[at + i]! * factors[i]!;
    }
    this.roots = roots;
    this.cells = null;
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
    if (count > this.memberAt.length) this.reserve(count);
  }

  private reserve(capacity: number): void {
    // The cells read the scaled rows' old array: they are built again over the new one.
    this.cells = null;
    const scaled = new Float32Array(capacity * DESCRIPTOR_LENGTH);
    scaled.set(this.scaled);
    this.scaled = scaled;
    const members = new Int32Array(capacity);
    members.set(this.members);
    this.members = members;
    const memberAt = new Int32Array(capacity).fill(-1);
    memberAt.set(this.memberAt);
    this.memberAt = memberAt;
  }
}
