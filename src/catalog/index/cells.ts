/**
 * An inverted file over vectors (the scaled descriptors of similar.ts): k-means centroids
 * trained on a sample, each vector listed under its nearest centroid. A query reads the lists
 * of the few centroids nearest to it instead of every vector: a small share of the work, missing
 * few true neighbours (docs/performance.md gives the time and the recall). Vectors added after the
 * build join the list of their nearest centroid.
 *
 * Building takes a sample and a few k-means rounds, then lists every vector; the listing is done
 * a slice at a time between requests (`step`), so a large catalog never stalls the server.
 */

/** Vectors read per step of a build: a few milliseconds of work. */
const STEP_VECTORS = 1000;
/** Rows k-means is trained on: at least 8 per centroid. */
const SAMPLE_PER_CELL = 8;
const MIN_SAMPLE = 2048;
const ROUNDS = 4;
/**
 * About √n cells: more cells make lists shorter, but each query reads more centroids, and training
 * and listing take longer. √n cells instead of √n / 2 halved a query's time at the same recall
 * (bench/similar-index.ts); the cap keeps a large catalog's cells,
 * listed before the server answers, about where √n / 2 had them (500 at 1,000,000 sounds).
 */
const MAX_CELLS = 512;

export class Cells {
  readonly count: number;
  private readonly centroids: Float32Array;
  private readonly lists: number[][];
  /** Each vector's cell, -1 for none yet. */
  private cellOf: Int32Array;
  /** Vectors still to list, from the end. */
  private toList: number[];

  /**
   * Starts a build over `docs` (rows of `dimensions` numbers in `vectors`). Centroids are
   * trained at once on a sample; `step()` then lists the vectors until `ready`.
   */
  constructor(
    private readonly vectors: Float32Array,
    private readonly dimensions: number,
    docs: ArrayLike<number>,
    capacity: number,
    random: () => number = Math.random,
  ) {
    this.count = Math.max(1, Math.min(MAX_CELLS, Math.round(Math.sqrt(docs.length))));
    this.centroids = train(vectors, dimensions, sample(docs, Math.max(MIN_SAMPLE, SAMPLE_PER_CELL * this.count), random), this.count);
    this.lists = Array.from({ length: this.count }, () => []);
    this.cellOf = new Int32Array(capacity).fill(-1);
    this.toList = Array.from(docs);
  }

  get ready(): boolean {
    return this.toList.length === 0;
  }

  /** Lists the next slice of vectors; true when all are listed. */
  step(): boolean {
    for (let n = 0; n < STEP_VECTORS && this.toList.length > 0; n++) this.add(this.toList.pop()!);
    return this.ready;
  }

  /** Lists one vector under its nearest centroid (again, if it was listed before). */
  add(doc: number): void {
    if (doc >= this.cellOf.length) {
      const grown = new Int32Array(Math.max(doc + 1, this.cellOf.length * 2)).fill(-1);
      grown.set(this.cellOf);
      this.cellOf = grown;
    }
    const cell = nearestCentroid(this.centroids, this.count, this.dimensions, this.vectors, doc * this.dimensions);
    if (this.cellOf[doc] === cell) return;
    this.cellOf[doc] = cell;
    this.lists[cell]!.push(doc);
  }

  /** Forgets a vector (its list entry goes at the next visit). */
  remove(doc: number): void {
    if (doc < this.cellOf.length) this.cellOf[doc] = -1;
  }

  /**
   * Visits the vectors listed under the `probes` centroids nearest to `target` (a row of
   * `vectors`, at `at`), nearest centroid first. Stale entries are dropped on the way.
   */
  visit(target: Float32Array, at: number, probes: number, visit: (doc: number) => void): void {
    const d = this.dimensions;
    const distances = new Float64Array(this.count);
    for (let c = 0; c < this.count; c++) {
      let distance = 0;
      for (let i = 0; i < d; i++) {
        const difference = this.centroids[c * d + i]! - target[at + i]!;
        distance += difference * difference;
      }
      distances[c] = distance;
    }
    const order = Array.from({ length: this.count }, (_, c) => c).sort((a, b) => distances[a]! - distances[b]!);
    for (const cell of order.slice(0, probes)) {
      const list = this.lists[cell]!;
      let kept = 0;
      for (const doc of list) {
        if (this.cellOf[doc] !== cell) continue;
        list[kept++] = doc;
        visit(doc);
      }
      list.length = kept;
    }
  }
}

function sample(docs: ArrayLike<number>, size: number, random: () => number): number[] {
  if (docs.length <= size) return Array.from(docs);
  const picked: number[] = [];
  for (let i = 0; i < size; i++) picked.push(docs[Math.floor(random() * docs.length)]!);
  return picked;
}

/** Lloyd's k-means from `count` distinct starting rows of the sample. */
function train(vectors: Float32Array, d: number, docs: number[], count: number): Float32Array {
  const centroids = new Float32Array(count * d);
  const step = docs.length / count;
  for (let c = 0; c < count; c++) centroids.set(vectors.subarray(docs[Math.floor(c * step)]! * d, docs[Math.floor(c * step)]! * d + d), c * d);
  const sums = new Float64Array(count * d);
  const sizes = new Int32Array(count);
  for (let round = 0; round < ROUNDS; round++) {
    sums.fill(0);
    sizes.fill(0);
    for (const doc of docs) {
      const cell = nearestCentroid(centroids, count, d, vectors, doc * d);
      sizes[cell]!++;
      for (let i = 0; i < d; i++) sums[cell * d + i] = sums[cell * d + i]! + vectors[doc * d + i]!;
    }
    // An empty cell keeps its centroid: it costs one distance per query and may fill later.
    for (let c = 0; c < count; c++) if (sizes[c]! > 0) for (let i = 0; i < d; i++) centroids[c * d + i] = sums[c * d + i]! / sizes[c]!;
  }
  return centroids;
}

function nearestCentroid(centroids: Float32Array, count: number, d: number, vectors: Float32Array, at: number): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let c = 0; c < count; c++) {
    let distance = 0;
    for (let i = 0; i < d && distance < bestDistance; i++) {
      const difference = centroids[c * d + i]! - vectors[at + i]!;
      distance += difference * difference;
    }
    if (distance < bestDistance) {
      bestDistance = distance;
      best = c;
    }
  }
  return best;
}
