/**
 * The waveform overview: WAVEFORM_POINTS [min, max] pairs across the sound, over all channels.
 *
 * The length is unknown while streaming, so frames go into at most BUCKETS min/max buckets
 * whose width doubles (pairs merge) whenever they fill up; at the end each point takes the
 * buckets under its share of the sound. Sounds up to BUCKETS frames are therefore exact, and
 * longer ones are exact to within one bucket (1/2048 of the length or better) at each edge.
 */
export const WAVEFORM_POINTS = 200;
const BUCKETS = 4096;
/** Four decimals are far finer than any drawing needs and keep the stored JSON small. */
const DECIMALS = 1e4;

export class WaveformBuilder {
  private readonly mins = new Float32Array(BUCKETS).fill(Infinity);
  private readonly maxs = new Float32Array(BUCKETS).fill(-Infinity);
  private bucketWidth = 1;
  /** Index of the bucket being filled, and frames already in it. */
  private bucket = 0;
  private fill = 0;
  private frames = 0;

  /** `points` pairs at the end: WAVEFORM_POINTS for the stored overview, a picture's width for its columns. */
  constructor(private readonly points = WAVEFORM_POINTS) {}

  push(channels: readonly Float32Array[], frames: number): void {
    let offset = 0;
    while (offset < frames) {
      if (this.fill === this.bucketWidth) this.nextBucket();
      const run = Math.min(frames - offset, this.bucketWidth - this.fill);
      let lo = this.mins[this.bucket]!;
      let hi = this.maxs[this.bucket]!;
      for (const channel of channels) {
        for (let i = offset; i < offset + run; i++) {
          const x = channel[i]!;
          if (x < lo) lo = x;
          if (x > hi) hi = x;
        }
      }
      this.mins[this.bucket] = lo;
      this.maxs[this.bucket] = hi;
      this.fill += run;
      offset += run;
    }
    this.frames += frames;
  }

  private nextBucket(): void {
    if (this.bucket === BUCKETS - 1) {
      for (let i = 0; i < BUCKETS / 2; i++) {
        this.mins[i] = Math.min(this.mins[2 * i]!, this.mins[2 * i + 1]!);
        this.maxs[i] = Math.max(this.maxs[2 * i]!, this.maxs[2 * i + 1]!);
      }
      this.mins.fill(Infinity, BUCKETS / 2);
      this.maxs.fill(-Infinity, BUCKETS / 2);
      this.bucketWidth *= 2;
      this.bucket = BUCKETS / 2 - 1;
    }
    this.bucket++;
    this.fill = 0;
  }

  /** `points` pairs; a sound shorter than that repeats its samples; an empty one is flat. */
  finish(): Array<[number, number]> {
    const points: Array<[number, number]> = [];
    for (let p = 0; p < this.points; p++) {
      if (this.frames === 0) {
        points.push([0, 0]);
        continue;
      }
      const start = Math.floor((p * this.frames) / this.points);
      const end = Math.max(start + 1, Math.floor(((p + 1) * this.frames) / this.points));
      const firstBucket = Math.floor(start / this.bucketWidth);
      const lastBucket = Math.min(this.bucket, Math.ceil(end / this.bucketWidth) - 1);
      let lo = Infinity;
      let hi = -Infinity;
      for (let b = firstBucket; b <= lastBucket; b++) {
        lo = Math.min(lo, this.mins[b]!);
        hi = Math.max(hi, this.maxs[b]!);
      }
      points.push([roundForDrawing(lo), roundForDrawing(hi)]);
    }
    return points;
  }
}

/** `+ 0` turns -0 into 0, so equal drawings compare equal. */
function roundForDrawing(x: number): number {
  return Math.round(x * DECIMALS) / DECIMALS + 0;
}
