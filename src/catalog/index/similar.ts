import { DESCRIPTOR_LENGTH, DESCRIPTOR_NAMES } from '../../audio/analyze/descriptors.ts';

/**
 * Nearest neighbours over the sounds' audio descriptors, from memory. Each number of a
 * descriptor is divided by its standard deviation over the catalog (kept as running sums, so a
 * change costs DESCRIPTOR_LENGTH additions), weighted, and the distance is Euclidean. A query
 * reads every described sound once: at DESCRIPTOR_LENGTH numbers each, that is a few
 * milliseconds for 100,000 sounds (BENCHMARKS.md), with no index to keep up to date.
 */

/**
 * How much each kind of number counts. The timbre (MFCCs) and the spectral shape say most about
 * what a sound is; how they move over time (the deviations) a little less; the envelope (onset
 * rate, attack, duration) tells a hit from a texture; loudness says least, since any sound can be
 * played louder.
 */
function weightOf(name: string): number {
  if (name === 'loudness') return 0.5;
  if (name === 'onset_rate' || name === 'attack' || name === 'duration') return 1.5;
  if (name.endsWith('_std')) return 0.5;
  return 1;
}
const WEIGHTS = Float64Array.from(DESCRIPTOR_NAMES, weightOf);
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, weight) => sum + weight, 0);

export interface Neighbour {
  doc: number;
  /** 1 for the same descriptors, falling towards 0 with distance; a typical unrelated pair is about 0.37. */
  similarity: number;
}

export class SimilarityIndex {
  private vectors = new Float32Array(0);
  private described = new Uint8Array(0);
  private readonly sums = new Float64Array(DESCRIPTOR_LENGTH);
  private readonly squares = new Float64Array(DESCRIPTOR_LENGTH);
  private count = 0;

  /** Sets (or, with null, clears) the descriptors of the sound at a position. */
  set(doc: number, vector: readonly number[] | null): void {
    this.clear(doc);
    if (vector === null || vector.length !== DESCRIPTOR_LENGTH || !vector.every(Number.isFinite)) return;
    if ((doc + 1) * DESCRIPTOR_LENGTH > this.vectors.length) this.reserve(Math.max(1024, (doc + 1) * 2));
    this.vectors.set(vector, doc * DESCRIPTOR_LENGTH);
    this.described[doc] = 1;
    this.count++;
    // The stored (32-bit) values are summed, so that clearing subtracts exactly what was added.
    const at = doc * DESCRIPTOR_LENGTH;
    for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
      const value = this.vectors[at + i]!;
      this.sums[i] = this.sums[i]! + value;
      this.squares[i] = this.squares[i]! + value * value;
    }
  }

  clear(doc: number): void {
    if (this.described[doc] !== 1) return;
    this.described[doc] = 0;
    this.count--;
    const at = doc * DESCRIPTOR_LENGTH;
    for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
      const value = this.vectors[at + i]!;
      this.sums[i] = this.sums[i]! - value;
      this.squares[i] = this.squares[i]! - value * value;
    }
  }

  has(doc: number): boolean {
    return this.described[doc] === 1;
  }

  /** The `limit` described sounds nearest to `doc`, nearest first (ties by position); never `doc` itself. */
  nearest(doc: number, limit: number): Neighbour[] {
    if (!this.has(doc) || limit <= 0) return [];
    const scale = this.scales();
    const vectors = this.vectors;
    const target = vectors.subarray(doc * DESCRIPTOR_LENGTH, (doc + 1) * DESCRIPTOR_LENGTH);
    // The best so far, kept sorted by distance: a short array beats a heap at these sizes.
    const bestDocs: number[] = [];
    const bestDistances: number[] = [];
    let worst = Infinity;
    const described = this.described;
    for (let other = 0; other < described.length; other++) {
      if (described[other] !== 1 || other === doc) continue;
      const at = other * DESCRIPTOR_LENGTH;
      let distance = 0;
      for (let i = 0; i < DESCRIPTOR_LENGTH && distance < worst; i++) {
        const difference = vectors[at + i]! - target[i]!;
        distance += difference * difference * scale[i]!;
      }
      if (bestDocs.length === limit && distance >= worst) continue;
      let place = bestDistances.length;
      while (place > 0 && bestDistances[place - 1]! > distance) place--;
      bestDocs.splice(place, 0, other);
      bestDistances.splice(place, 0, distance);
      if (bestDocs.length > limit) {
        bestDocs.pop();
        bestDistances.pop();
      }
      if (bestDocs.length === limit) worst = bestDistances[limit - 1]!;
    }
    return bestDocs.map((neighbour, i) => ({
      doc: neighbour,
      similarity: Math.round(Math.exp(-bestDistances[i]! / (2 * TOTAL_WEIGHT)) * 1e4) / 1e4,
    }));
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

  private reserve(capacity: number): void {
    const vectors = new Float32Array(capacity * DESCRIPTOR_LENGTH);
    vectors.set(this.vectors);
    this.vectors = vectors;
    const described = new Uint8Array(capacity);
    described.set(this.described);
    this.described = described;
  }
}
