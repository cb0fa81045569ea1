import { FloatRows } from './float-rows.ts';
import { grown } from './posting.ts';

/**
 * An inverted file over vectors (the scaled descriptors of similar.ts), in two levels: k-means
 * centroids trained on a sample split the vectors into coarse cells, and each coarse cell is split
 * again by k-means on its own members into fine cells of about FINE_SIZE vectors. A query ranks the
 * fine cells of the coarse cells nearest to it and reads the nearest of them until it has read a
 * given number of vectors: a small share of the work, missing few true neighbours (the package's
 * README gives the trade-off).
 *
 * Why two levels: sounds of one kind form a dense crowd, and the largest crowds hold a tenth of a
 * catalog. One level of about √n cells put a crowd in one or a few cells, so a query read all of
 * it; fine cells let a query read only the part of the
 * crowd near it, while ranking the fine cells stays cheap because only those of the nearest
 * coarse cells are ranked.
 *
 * Building takes a sample and a few k-means rounds, then lists every vector under its coarse
 * cell, then splits the coarse cells one by one, then moves the rows so that each fine cell's lie
 * side by side, in the order a query reads them (a query then reads memory in sequence instead of
 * a row here and a row there). The work is done a
 * slice at a time between requests (`step`), so a large catalog never stalls the server. Vectors
 * added after the build join the fine cell nearest to them, their rows staying where they are.
 *
 * The lists hold slots, not positions, so that a query finds its rows' cells and reads the rows
 * in the order they lie, in runs, with no lookup per row. The rows' owner tells the cells of
 * every swap of two slots (`swapped`), and each moved row is listed again where it went.
 */

// Tuned constants: the package's README says why each has its value.
/** Vectors listed under their coarse cell, or rows moved, per step of a build. */
const STEP_VECTORS = 1000;
/** Rows k-means is trained on: at least 8 per coarse centroid, 32 per fine one. */
const SAMPLE_PER_CELL = 8;
const SAMPLE_PER_FINE_CELL = 32;
const MIN_SAMPLE = 2048;
const ROUNDS = 4;
/** Coarse cells: about √(n / 4), at most MAX_COARSE. Each is split into fine cells of about FINE_SIZE vectors. */
const MAX_COARSE = 256;
const FINE_SIZE = 128;
/**
 * A coarse cell's fine cells are ranked when its centroid is at most this many times as far
 * (squared) as the nearest coarse centroid, and at most MAX_COARSE_PROBES of them.
 */
const COARSE_REACH = 1.5;
const MAX_COARSE_PROBES = 32;

/**
 * The rows the cells are over: each vector's `dimensions` numbers at its slot (`slotOf`), read by
 * `readSlot`. The owner may replace `slotOf` (to grow it), and must tell every Cells over the rows
 * (`swapped`) whenever two slots swap their rows: by `swapSlots` (the cells' own arrangement) or
 * by taking a row away.
 */
export interface Rows {
  readonly slotOf: Int32Array;
  /** Writes the numbers of the row at a slot into `into` and returns it. */
  readSlot(slot: number, into: Float32Array): Float32Array;
  /** Slots in use: 0 to size - 1. */
  readonly size: number;
  /** Swaps the rows of two slots. */
  swapSlots(a: number, b: number): void;
}

interface Split {
  centroids: Float32Array;
  /** The first of this coarse cell's fine cells in `lists`, and how many it has. */
  first: number;
  count: number;
}

/** In `cellAt`: a slot listed nowhere (no vector, or one removed). */
const NONE = -1;
/** In `cellAt`: a slot waiting in coarse cell c's pending list is marked WAITING - c. */
const WAITING = -2;

export class Cells {
  private readonly coarseCount: number;
  private readonly coarse: Float32Array;
  /** Per coarse cell: its fine cells once split, else null. */
  private readonly splits: Array<Split | null>;
  /** Per coarse cell not yet split: the slots listed under it. */
  private readonly pending: number[][];
  /** The slots of each fine cell, all coarse cells' fine cells in one list. */
  private readonly lists: number[][] = [];
  /**
   * Each slot's fine cell; NONE, or WAITING - c while it waits in coarse cell c's pending list.
   * Lists are of slots, so that a query reads these in the order the rows lie; a list entry
   * whose slot has another cell here is stale and dropped when met.
   */
  private cellAt: Int32Array;
  /** Per slot: the last pass over the lists that met it, so that a slot listed twice counts once. */
  private seen: Int32Array;
  private pass = 0;
  /** Vectors (positions) still to list under a coarse cell, from the end; then the next coarse cell to split. */
  private toList: number[];
  private nextSplit = 0;
  /** Then the rows' arrangement: the fine cell and the place in its list it has reached, and the next slot. */
  private arrangedCell = 0;
  private arrangedPlace = 0;
  private nextSlot = 0;
  /**
   * Rows listed out of the arrangement since it was done: moved by a removal, or added. A query
   * reads them one by one instead of in sequence; the owner builds the cells again when they are many.
   */
  displaced = 0;
  /** What `gather` returns a part of. */
  private found = new Int32Array(1024);
  /** A vector's numbers, read (Rows.readSlot) to be measured. */
  private readonly vector: Float32Array;
  /**
   * The centroids again, where a query measures them (WebAssembly): the coarse ones, then each
   * fine cell's, at coarseCount + its number in `lists`.
   */
  private readonly centroids: FloatRows;

  /**
   * Starts a build over `docs` (positions with rows of `dimensions` numbers in `rows`, at slots
   * below `capacity`). Coarse centroids are trained at once on a sample; `step()` then lists,
   * splits and arranges until `ready`.
   */
  constructor(
    private readonly rows: Rows,
    private readonly dimensions: number,
    docs: ArrayLike<number>,
    capacity: number,
    private readonly random: () => number = Math.random,
  ) {
    this.vector = new Float32Array(dimensions);
    this.coarseCount = Math.max(1, Math.min(MAX_COARSE, Math.round(Math.sqrt(docs.length / 4))));
    const size = Math.max(MIN_SAMPLE, SAMPLE_PER_CELL * this.coarseCount);
    const slots = sample(docs, size, random).map((doc) => rows.slotOf[doc]!);
    this.coarse = train(rows, dimensions, slots, this.coarseCount);
    this.centroids = new FloatRows(dimensions, 2 * this.coarseCount + Math.ceil(docs.length / FINE_SIZE));
    this.centroids.append(this.coarse);
    this.splits = Array.from({ length: this.coarseCount }, () => null);
    this.pending = Array.from({ length: this.coarseCount }, () => []);
    this.cellAt = new Int32Array(capacity).fill(NONE);
    this.seen = new Int32Array(capacity);
    this.toList = Array.from(docs);
  }

  get ready(): boolean {
    return this.toList.length === 0 && this.nextSplit === this.coarseCount && this.arrangedCell === this.lists.length;
  }

  /** Does the next slice of the build; true when it is done. */
  step(): boolean {
    if (this.toList.length > 0) {
      for (let n = 0; n < STEP_VECTORS && this.toList.length > 0; n++) {
        const doc = this.toList.pop()!;
        // Removed since the build began (and not added again): not listed.
        if (this.rows.slotOf[doc]! >= 0) this.add(doc);
      }
    } else if (this.nextSplit < this.coarseCount) {
      this.split(this.nextSplit++);
    } else {
      this.arrange(STEP_VECTORS);
    }
    return this.ready;
  }

  /** Lists one vector (a position with a row) under its nearest cell (again, if it was listed before). */
  add(doc: number): void {
    const slot = this.rows.slotOf[doc]!;
    this.makeRoom(slot);
    const d = this.dimensions;
    const vector = this.rows.readSlot(slot, this.vector);
    const coarse = nearestCentroid(this.coarse, this.coarseCount, d, vector);
    const split = this.splits[coarse];
    const cell = split ? split.first + nearestCentroid(split.centroids, split.count, d, vector) : WAITING - coarse;
    if (this.cellAt[slot] === cell) return;
    if (this.ready) this.displaced++;
    this.cellAt[slot] = cell;
    this.listAt(slot, cell);
  }

  /** Forgets a vector before its row is taken away (its list entry goes when it is next met). */
  remove(doc: number): void {
    const slot = this.rows.slotOf[doc]!;
    if (slot >= 0 && slot < this.cellAt.length) this.cellAt[slot] = NONE;
  }

  /** Two slots swapped their rows: each is listed where its row is. */
  swapped(a: number, b: number): void {
    this.makeRoom(Math.max(a, b));
    const cellA = this.cellAt[a]!;
    const cellB = this.cellAt[b]!;
    if (cellA === cellB) return;
    if (this.ready) this.displaced++;
    this.cellAt[a] = cellB;
    this.cellAt[b] = cellA;
    this.listAt(a, cellB);
    this.listAt(b, cellA);
  }

  /**
   * The slots of the fine cells nearest to `target` (`dimensions` numbers), nearest cell first,
   * until at least `budget` of them. Stale entries are dropped on the way. The array is reused by
   * the next call.
   */
  gather(target: Float32Array, budget: number): Int32Array {
    const centroids = this.centroids;
    centroids.setTarget(target, 0);
    centroids.measure(0, this.coarseCount);
    const coarseDistances = centroids.distances;
    const coarseOrder = byDistance(coarseDistances.subarray(0, this.coarseCount));
    const reach = coarseDistances[coarseOrder[0]!]! * COARSE_REACH;
    // The fine cells of the nearest coarse cells, with their distances.
    const cells: number[] = [];
    const cellDistances: number[] = [];
    for (let rank = 0; rank < coarseOrder.length && rank < MAX_COARSE_PROBES; rank++) {
      const coarse = coarseOrder[rank]!;
      if (rank > 0 && coarseDistances[coarse]! > reach) break;
      const split = this.splits[coarse]!;
      const first = this.coarseCount + split.first;
      centroids.measure(first, split.count);
      for (let f = 0; f < split.count; f++) {
        cells.push(split.first + f);
        cellDistances.push(centroids.distances[first + f]!);
      }
    }
    const order = byDistance(cellDistances);
    let found = 0;
    for (let rank = 0; rank < order.length && found < budget; rank++) {
      const cell = cells[order[rank]!]!;
      const list = this.lists[cell]!;
      if (found + list.length > this.found.length)
        this.found = grown(this.found, Math.max(2 * this.found.length, found + list.length));
      found = this.take(list, cell, this.found, found);
    }
    return this.found.subarray(0, found);
  }

  /** Lists a slot under a cell code of `cellAt` (nowhere for NONE). */
  private listAt(slot: number, cell: number): void {
    if (cell >= 0) this.lists[cell]!.push(slot);
    else if (cell <= WAITING) this.pending[WAITING - cell]!.push(slot);
  }

  /**
   * Keeps in a list only the slots still under `cell`, each once, and copies them into `into`
   * (if given) from `at`; returns where the copy ended.
   */
  private take(list: number[], cell: number, into: Int32Array | null, at: number): number {
    const { cellAt, seen } = this;
    // A new pass: slots met in an earlier one count again (the marks start over past 2^31).
    if (++this.pass === 2 ** 31) {
      seen.fill(0);
      this.pass = 1;
    }
    const pass = this.pass;
    let kept = 0;
    for (let i = 0; i < list.length; i++) {
      const slot = list[i]!;
      if (cellAt[slot] !== cell || seen[slot] === pass) continue;
      seen[slot] = pass;
      list[kept++] = slot;
      if (into !== null) into[at++] = slot;
    }
    list.length = kept;
    return at;
  }

  /** Room in `cellAt` for a slot. */
  private makeRoom(slot: number): void {
    if (slot < this.cellAt.length) return;
    const length = Math.max(slot + 1, this.cellAt.length * 2);
    const cellAt = new Int32Array(length).fill(NONE);
    cellAt.set(this.cellAt);
    this.cellAt = cellAt;
    this.seen = grown(this.seen, length);
  }

  /** Splits coarse cell `c` into fine cells trained on its members, and lists them there. */
  private split(c: number): void {
    const d = this.dimensions;
    const waiting = this.pending[c]!;
    const members = new Int32Array(waiting.length);
    const count = this.take(waiting, WAITING - c, members, 0);
    this.pending[c] = [];
    const size = Math.max(1, Math.round(count / FINE_SIZE));
    const slots = members.subarray(0, count);
    const centroids =
      count === 0
        ? this.coarse.slice(c * d, (c + 1) * d)
        : train(this.rows, d, sample(slots, SAMPLE_PER_FINE_CELL * size, this.random), size);
    const split: Split = { centroids, first: this.lists.length, count: size };
    for (let f = 0; f < size; f++) this.lists.push([]);
    this.centroids.append(centroids);
    this.splits[c] = split;
    for (const slot of slots) {
      const cell = split.first + nearestCentroid(centroids, size, d, this.rows.readSlot(slot, this.vector));
      this.cellAt[slot] = cell;
      this.lists[cell]!.push(slot);
    }
  }

  /**
   * Moves up to `budget` rows to the next slots, fine cell after fine cell, each in its list's
   * order. Rows listed or moved meanwhile are taken as they are met; one listed behind the
   * arrangement keeps its slot (it is read, only not in sequence).
   */
  private arrange(budget: number): void {
    for (let moved = 0; moved < budget && this.arrangedCell < this.lists.length; ) {
      const list = this.lists[this.arrangedCell]!;
      if (this.arrangedPlace >= list.length) {
        // Each move listed a row again where it went: the entries it left are dropped now.
        this.take(list, this.arrangedCell, null, 0);
        this.arrangedCell++;
        this.arrangedPlace = 0;
        continue;
      }
      const slot = list[this.arrangedPlace++]!;
      // Stale, or behind the arrangement: arranged already, or left where it is.
      if (this.cellAt[slot] !== this.arrangedCell || slot < this.nextSlot) continue;
      // Fewer rows than when the build began: every one left is in place.
      if (this.nextSlot >= this.rows.size) {
        this.arrangedCell = this.lists.length;
        return;
      }
      if (this.cellAt[this.nextSlot] === this.arrangedCell) {
        // In place already: this entry is met again against the next slot.
        this.arrangedPlace--;
      } else {
        // The rows' owner tells these cells (`swapped`), which list each row where it now is.
        this.rows.swapSlots(slot, this.nextSlot);
      }
      this.nextSlot++;
      moved++;
    }
  }
}

const float = new Float32Array(1);
const floatBits = new Uint32Array(float.buffer);
const POSITIONS = 2 ** 20;

/**
 * Positions 0..n-1 (n at most 2^20) ordered by `distances`, nearest first. Each position is packed
 * with its distance into one number (the distance's bits as a 32-bit float, which order as the
 * distances do when they are not negative, then the position) and the numbers sorted as numbers,
 * which is much cheaper than sorting positions with a comparison function.
 */
function byDistance(distances: ArrayLike<number>): Int32Array {
  const keys = new Float64Array(distances.length);
  for (let i = 0; i < keys.length; i++) {
    float[0] = distances[i]!;
    keys[i] = floatBits[0]! * POSITIONS + i;
  }
  keys.sort();
  const order = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) order[i] = keys[i]! % POSITIONS;
  return order;
}

function sample(from: ArrayLike<number>, size: number, random: () => number): number[] {
  if (from.length <= size) return Array.from(from);
  const picked: number[] = [];
  for (let i = 0; i < size; i++) picked.push(from[Math.floor(random() * from.length)]!);
  return picked;
}

/** Lloyd's k-means from `count` starting rows spread over the sample (slots). */
function train(rows: Rows, d: number, slots: ArrayLike<number>, count: number): Float32Array {
  const vector = new Float32Array(d);
  const centroids = new Float32Array(count * d);
  const step = slots.length / count;
  for (let c = 0; c < count; c++) centroids.set(rows.readSlot(slots[Math.floor(c * step)]!, vector), c * d);
  const sums = new Float64Array(count * d);
  const sizes = new Int32Array(count);
  for (let round = 0; round < ROUNDS; round++) {
    sums.fill(0);
    sizes.fill(0);
    for (let n = 0; n < slots.length; n++) {
      rows.readSlot(slots[n]!, vector);
      const cell = nearestCentroid(centroids, count, d, vector);
      sizes[cell]!++;
      for (let i = 0; i < d; i++) sums[cell * d + i] = sums[cell * d + i]! + vector[i]!;
    }
    // An empty cell keeps its centroid: it costs one distance per query and may fill later.
    for (let c = 0; c < count; c++)
      if (sizes[c]! > 0) for (let i = 0; i < d; i++) centroids[c * d + i] = sums[c * d + i]! / sizes[c]!;
  }
  return centroids;
}

function nearestCentroid(centroids: Float32Array, count: number, d: number, vector: Float32Array): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let c = 0; c < count; c++) {
    let distance = 0;
    for (let i = 0; i < d && distance < bestDistance; i++) {
      const difference = centroids[c * d + i]! - vector[i]!;
      distance += difference * difference;
    }
    if (distance < bestDistance) {
      bestDistance = distance;
      best = c;
    }
  }
  return best;
}
