import { Cells } from './cells.ts';
import { VectorRows } from './vector-rows.ts';

/**
 * Nearest neighbours over the sounds' descriptors (vectors of as many numbers as there are
 * weights), from memory. Each number is divided by its standard deviation over the catalog (kept
 * as running sums, so a change costs one addition per number), multiplied by its weight, and the
 * distance is Euclidean. A small catalog's query reads every described sound; from CELLS_FROM
 * sounds on, a query reads a bounded number of sounds from the cells nearest to it (cells.ts),
 * which follow every change (the package's README gives the trade-off).
 */

export interface Neighbour {
  doc: number;
  /** 1 for the same descriptors, falling towards 0 with distance; a typical unrelated pair is about 0.37. */
  similarity: number;
}

const MIN_ROOT = 1e-6;
// Tuned constants: the package's README says why each has its value.
/** Below this many described sounds every one is read; from it on, cells are built. */
const CELLS_FROM = 20_000;
/** Vectors a query reads from the nearest cells (cells.ts): VISITS_PER_ROOT × √n, at least MIN_VISITS. */
const VISITS_PER_ROOT = 10;
const MIN_VISITS = 4000;
/**
 * A query keeps the 2 × limit + RERANKED nearest by the first pass (vector-rows.ts) and answers
 * the `limit` nearest of them by the numbers as held (to 16 bits).
 */
const RERANKED = 40;
/**
 * The first pass tells apart differences of up to REACH standard deviations of the most weighted
 * number (the spread of every number is its weight's root once scaled); a larger one counts as that.
 */
const REACH = 24;
/** The cells are built again once more than 1 / DISPLACED_SHARE of the rows lie out of their arrangement. */
const DISPLACED_SHARE = 10;

export class SimilarityIndex {
  /** How many numbers a descriptor has: one per weight. */
  readonly dimensions: number;
  private readonly weights: Float64Array;
  private readonly totalWeight: number;
  /** The first pass's unit (vector-rows.ts): REACH standard deviations of the most weighted number, over its limit. */
  private readonly unit: number;
  /**
   * Each described sound's numbers, held to 16 bits, with their running sums (vector-rows.ts);
   * distances are between the numbers multiplied by `roots` (the square root of each number's
   * scale), so that they are plain sums of squares.
   */
  private readonly rows: VectorRows;
  /** The roots the rows are scaled by; set again when a scale moves past 1 %. */
  private roots: Float64Array;
  /** A vector read from the rows (scaled), to find its cells. */
  private readonly target: Float32Array;
  /**
   * The inverted file over the rows for large catalogs (cells.ts), and the count it was built
   * for; while a new one is built for a grown or shrunk catalog, the old one answers.
   */
  private cells: Cells | null = null;
  private building: Cells | null = null;
  private cellsBuiltFor = 0;

  /**
   * `weights`: how much each number of a descriptor counts in a squared distance of numbers
   * divided by their standard deviation; their count is the descriptors' length.
   */
  constructor(weights: readonly number[]) {
    if (weights.length === 0 || !weights.every((weight) => Number.isFinite(weight) && weight >= 0)) {
      throw new RangeError('descriptor weights must be finite, not negative, and at least one');
    }
    const d = weights.length;
    this.dimensions = d;
    this.weights = Float64Array.from(weights);
    this.totalWeight = this.weights.reduce((sum, weight) => sum + weight, 0);
    this.rows = new VectorRows(d);
    this.rows.swapped = (a, b) => {
      this.cells?.swapped(a, b);
      this.building?.swapped(a, b);
    };
    this.unit = (REACH * Math.sqrt(Math.max(...weights))) / this.rows.limit;
    this.roots = new Float64Array(d).fill(1);
    this.target = new Float32Array(d);
  }

  /** Sets (or, with null, clears) the descriptors of the sound at a position. */
  set(doc: number, vector: readonly number[] | null): void {
    const usable = vector !== null && vector.length === this.dimensions && vector.every(Number.isFinite);
    // A row read again for another reason (a download) brings the same numbers: nothing to do.
    if (usable && this.has(doc) && this.rows.holds(doc, vector)) return;
    if (!usable) {
      this.clear(doc);
      return;
    }
    this.rows.put(doc, vector);
    this.cells?.add(doc);
    this.building?.add(doc);
  }

  clear(doc: number): void {
    if (!this.has(doc)) return;
    this.cells?.remove(doc);
    this.building?.remove(doc);
    this.rows.remove(doc);
  }

  /** How many sounds have descriptors. */
  get size(): number {
    return this.rows.size;
  }

  has(doc: number): boolean {
    return this.rows.has(doc);
  }

  /**
   * Starts building the cells, if the catalog is large enough to need them: called once the index
   * is loaded. They are built in slices between requests, so the server answers while they are
   * (their k-means is a large part of a large catalog's build). Until they are done a query reads
   * every sound, exact and slower.
   */
  prepare(): void {
    this.rescaleIfDrifted();
    this.readyCells();
  }

  /** The cells just built answer from now on. */
  private finishBuild(): void {
    this.cells = this.building;
    this.building = null;
  }

  /**
   * The `limit` described sounds nearest to `doc`, nearest first; never `doc` itself. Small
   * catalogs read every sound; large ones read the sounds of the cells nearest to it. The
   * nearest by the first pass are kept, and then measured on their numbers as held.
   */
  nearest(doc: number, limit: number): Neighbour[] {
    if (!this.has(doc) || limit <= 0) return [];
    this.rescaleIfDrifted();
    const rows = this.rows;
    const target = rows.slotOf[doc]!;
    const cells = this.readyCells();
    // Slots, not positions: the cells list the rows in the order they lie, and the scan reads them so.
    const slots = cells
      ? cells.gather(rows.readSlot(target, this.target), Math.max(MIN_VISITS, VISITS_PER_ROOT * Math.sqrt(rows.size)))
      : null;
    const distances = rows.scan(slots, target);
    const count = slots === null ? rows.size : slots.length;
    const docAt = rows.docs;
    const kept = new Fewest(2 * limit + RERANKED);
    for (let i = 0; i < count; i++) {
      const slot = slots === null ? i : slots[i]!;
      if (slot !== target) kept.offer(docAt[slot]!, distances[i]!);
    }
    const measured = kept.docs().map((other) => ({ doc: other, distance: rows.distance(rows.slotOf[other]!, target) }));
    measured.sort((a, b) => a.distance - b.distance || a.doc - b.doc);
    return measured.slice(0, limit).map(({ doc: neighbour, distance }) => ({
      doc: neighbour,
      similarity: Math.round(Math.exp(-distance / (2 * this.totalWeight)) * 1e4) / 1e4,
    }));
  }

  /**
   * The cells that answer, if any; a build is started when the catalog is large and has none, has
   * changed size by half since its last, or has had a tenth of its rows moved out of their
   * arrangement (removed, or added since). Until the first build is done, queries read every
   * sound; the cells of a later build answer once it is done, those before it until then.
   */
  private readyCells(): Cells | null {
    const count = this.rows.size;
    if (count < CELLS_FROM) return null;
    const stale =
      this.cells === null ||
      Math.abs(count - this.cellsBuiltFor) > this.cellsBuiltFor / 2 ||
      this.cells.displaced > count / DISPLACED_SHARE;
    if (stale && this.building === null) {
      const building = new Cells(this.rows, this.dimensions, this.rows.docs, this.rows.capacity);
      this.building = building;
      this.cellsBuiltFor = count;
      const step = () => {
        if (this.building !== building) return;
        if (building.step()) this.finishBuild();
        else setImmediate(step);
      };
      step();
    }
    return this.cells;
  }

  /**
   * Scales the rows again when a scale has moved by more than 1 % since they were scaled (a
   * catalog's spread moves little once it has some thousands of sounds): a factor per number,
   * the rows untouched. The cells were in the old space: they are built again.
   */
  private rescaleIfDrifted(): void {
    // A number that never varies has scale 0; a tiny root adds nothing that matters to a distance.
    const roots = this.scales().map((scale) => Math.max(Math.sqrt(scale), MIN_ROOT));
    const moved = roots.some((root, i) => Math.abs(root - this.roots[i]!) > 0.005 * Math.max(root, this.roots[i]!));
    if (this.rows.scaled && !moved) return;
    this.roots = roots;
    this.cells = null;
    this.building = null;
    this.rows.setScale(roots, this.unit);
  }

  /** Per number: its weight over its variance across the catalog (a number that never varies counts for nothing). */
  private scales(): Float64Array {
    const count = this.rows.size;
    const scale = new Float64Array(this.dimensions);
    for (let i = 0; i < this.dimensions; i++) {
      const mean = this.rows.sums[i]! / count;
      const variance = this.rows.squares[i]! / count - mean * mean;
      scale[i] = variance > 1e-9 * (1 + mean * mean) ? this.weights[i]! / variance : 0;
    }
    return scale;
  }

  /**
   * Room for positions below `count`, made at once: a first load that knows the catalog's size
   * copies no rows while it grows and leaves no spare ones.
   */
  reserveFor(count: number): void {
    this.rows.reserve(count);
  }
}

/**
 * The `size` positions offered at the smallest distances (ties: the smaller position), kept as a
 * heap whose root is the farthest kept: an offer that does not beat it is turned away by that one
 * comparison, which is what most of a query's thousands of offers are.
 */
class Fewest {
  private readonly distances: Int32Array;
  private readonly positions: Int32Array;
  private count = 0;

  constructor(private readonly size: number) {
    this.distances = new Int32Array(size);
    this.positions = new Int32Array(size);
  }

  offer(doc: number, distance: number): void {
    if (this.count < this.size) {
      this.siftUp(this.count++, doc, distance);
    } else if (before(distance, doc, this.distances[0]!, this.positions[0]!)) {
      this.siftDown(doc, distance);
    }
  }

  /** The positions kept, each once: a sound listed twice in a cell (moved away and back) was offered twice. */
  docs(): number[] {
    return [...new Set(this.positions.subarray(0, this.count))];
  }

  /** Puts an entry at `at`, then moves it up past the nearer ones above it. */
  private siftUp(at: number, doc: number, distance: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(this.distances[parent]!, this.positions[parent]!, distance, doc)) break;
      this.distances[at] = this.distances[parent]!;
      this.positions[at] = this.positions[parent]!;
      at = parent;
    }
    this.distances[at] = distance;
    this.positions[at] = doc;
  }

  /** Replaces the root with an entry, then moves it down below the farther ones. */
  private siftDown(doc: number, distance: number): void {
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.count) break;
      if (
        child + 1 < this.count &&
        before(this.distances[child]!, this.positions[child]!, this.distances[child + 1]!, this.positions[child + 1]!)
      )
        child++;
      if (!before(distance, doc, this.distances[child]!, this.positions[child]!)) break;
      this.distances[at] = this.distances[child]!;
      this.positions[at] = this.positions[child]!;
      at = child;
    }
    this.distances[at] = distance;
    this.positions[at] = doc;
  }
}

/**
 * Whether (distance a, position a) comes before (distance b, position b): nearer, or as near and the smaller position.
 */
function before(aDistance: number, aDoc: number, bDistance: number, bDoc: number): boolean {
  return aDistance < bDistance || (aDistance === bDistance && aDoc < bDoc);
}
