/**
 * Zeroed bitmaps for the query being answered, handed out again to the next one. A query makes
 * a few bitmaps over the whole catalog (unions of postings, a duration range), a bit per sound
 * each; allocated anew, thousands a second, they were memory the process took from the system
 * faster than the collector gave it back.
 */
export class BitmapPool {
  private bitmaps: Uint32Array[] = [];
  private used = 0;
  private words = 0;

  /** Starts a query over `capacity` positions: every bitmap handed out before is free again. */
  reset(capacity: number): void {
    const words = (capacity + 31) >>> 5;
    if (words !== this.words) {
      this.bitmaps = [];
      this.words = words;
    }
    this.used = 0;
  }

  /** A bitmap with no bit set. */
  take(): Uint32Array {
    const bits = this.takeUncleared();
    bits.fill(0);
    return bits;
  }

  /** A bitmap holding what its last query left: for one whose every word is written before it is read. */
  takeUncleared(): Uint32Array {
    if (this.used === this.bitmaps.length) this.bitmaps.push(new Uint32Array(this.words));
    return this.bitmaps[this.used++]!;
  }

  /** A bitmap holding `bits`, cut to the pool's length or with zeros past theirs. */
  copyOf(bits: Uint32Array): Uint32Array {
    const copy = this.takeUncleared();
    copy.set(bits.length > copy.length ? bits.subarray(0, copy.length) : bits);
    copy.fill(0, bits.length);
    return copy;
  }
}
