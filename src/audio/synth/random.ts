/**
 * Seeded randomness. Every sound draws from its own stream keyed by (seed, index), so sound i
 * never depends on generating sounds 0..i-1 and a catalog can be made lazily or in parallel.
 */

/** FNV-1a with a murmur3 finalizer: near-identical keys ("x:1", "x:2") give unrelated values. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32: 128 bits of state, fast with 32-bit integer maths, good enough for audio noise. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(key: string) {
    this.a = hashString(`${key}#a`);
    this.b = hashString(`${key}#b`);
    this.c = hashString(`${key}#c`);
    this.d = 1;
    // The first outputs of sfc32 still echo the seed words; discard them.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform in [-1, 1): white noise. */
  bipolar(): number {
    return this.nextUint32() / 2147483648 - 1;
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform on a log scale: right for frequencies and durations, where ratios matter. */
  logRange(min: number, max: number): number {
    return min * (max / min) ** this.next();
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Random.pick needs a non-empty list');
    return item;
  }

  /** Picks a value with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let remaining = this.next() * total;
    for (const [value, weight] of entries) {
      remaining -= weight;
      if (remaining < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error('Random.weighted needs a non-empty list');
    return last[0];
  }
}
