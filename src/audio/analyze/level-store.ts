/**
 * Keeps the per-frame level (max over channels of |x|) only where the timing rule may still
 * need it: the most recent RECENT_SEGMENTS milliseconds in a ring, plus older 1 ms segments that
 * candidate windows still cover. Memory follows the candidates, not the length of the sound.
 */

/** Segments kept in the ring before they are either copied out (still wanted) or dropped. */
export const RECENT_SEGMENTS = 32;

export class LevelStore {
  private readonly ring: Float32Array;
  private readonly mask: number;
  private readonly kept = new Map<number, Float32Array>();
  private readonly spare: Float32Array[] = [];
  private keptLimit = 1024;
  /** Segments below this index have left the ring. */
  private firstInRing = 0;

  constructor(
    private readonly segmentStart: (segment: number) => number,
    private readonly maxSegmentLength: number,
  ) {
    let size = 1;
    while (size < (RECENT_SEGMENTS + 2) * maxSegmentLength) size *= 2;
    this.ring = new Float32Array(size);
    this.mask = size - 1;
  }

  /** Stores levels[from, from + count) as the levels of frames firstFrame, firstFrame + 1, ... */
  writeRun(firstFrame: number, levels: Float32Array, from: number, count: number): void {
    const ring = this.ring;
    const mask = this.mask;
    for (let i = 0; i < count; i++) ring[(firstFrame + i) & mask] = levels[from + i]!;
  }

  /** Moves `segment` out of the ring: copied if still wanted, else forgotten. Call in segment order. */
  retire(segment: number, isWanted: (segment: number) => boolean): void {
    if (isWanted(segment)) {
      const start = this.segmentStart(segment);
      const length = this.segmentStart(segment + 1) - start;
      const copy = this.spare.pop() ?? new Float32Array(this.maxSegmentLength);
      for (let i = 0; i < length; i++) copy[i] = this.ring[(start + i) & this.mask]!;
      this.kept.set(segment, copy);
      if (this.kept.size > this.keptLimit) this.forgetUnwanted(isWanted);
    }
    this.firstInRing = segment + 1;
  }

  /** Candidates only ever shrink for old segments, so pruning lazily (when the map doubles) is enough. */
  private forgetUnwanted(isWanted: (segment: number) => boolean): void {
    for (const [segment, levels] of this.kept) {
      if (!isWanted(segment)) {
        this.kept.delete(segment);
        this.spare.push(levels);
      }
    }
    this.keptLimit = Math.max(1024, 2 * this.kept.size);
  }

  /** Level of every frame in [start, end) of one segment, in order. */
  levelsOf(segment: number, start: number, end: number): Float32Array {
    if (segment < this.firstInRing) {
      const levels = this.kept.get(segment);
      if (!levels) throw new Error(`timing: level of segment ${segment} was not kept`);
      return levels.subarray(0, end - start);
    }
    const out = new Float32Array(end - start);
    for (let i = 0; i < out.length; i++) out[i] = this.ring[(start + i) & this.mask]!;
    return out;
  }
}
