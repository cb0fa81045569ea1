/**
 * How often counted downloads are written to the database: the most a crash can lose, and about
 * how late other instances see them.
 */
export const FLUSH_INTERVAL_MS = 1000;

/**
 * Downloads counted in this process and not yet in the database, by sound id. Once a second they
 * are written in one transaction, one addition per sound, so the database's change log gets one
 * row per downloaded sound per second, not one per download. A flush that fails puts its counts
 * back for the next one; `close` writes what is left, so a clean stop loses nothing.
 *
 * A count read from the database plus `of(id)` is the sound's exact count as long as no flush
 * overlapped the read (the flush's counts would then be in both, or in neither):
 * `readBetweenFlushes` makes sure of that.
 */
export class PendingDownloads {
  private counts = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  private flushesStarted = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: (counts: ReadonlyMap<string, number>) => Promise<void>,
    private readonly onError: (error: unknown) => void,
    intervalMs = FLUSH_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => {
      if (this.flushing === null) void this.flush();
    }, intervalMs);
    // Pending counts never keep a process alive: `close` is what writes the last of them.
    this.timer.unref();
  }

  add(id: string): void {
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
  }

  /** This sound's downloads not yet written to the database. */
  of(id: string): number {
    return this.counts.get(id) ?? 0;
  }

  /** Runs `read` again until no flush was under way while it ran. */
  async readBetweenFlushes<T>(read: () => Promise<T>): Promise<T> {
    for (;;) {
      while (this.flushing !== null) await this.flushing;
      const flushes = this.flushesStarted;
      const result = await read();
      if (this.flushesStarted === flushes) return result;
    }
  }

  /** Writes every pending count now (after the flush under way, if any). Never rejects. */
  async flush(): Promise<void> {
    while (this.flushing !== null) await this.flushing;
    if (this.counts.size === 0) return;
    const counts = this.counts;
    this.counts = new Map();
    this.flushesStarted++;
    this.flushing = this.write(counts).catch((error: unknown) => {
      // Not written (the transaction rolled back): counted again with the next flush.
      for (const [id, n] of counts) this.counts.set(id, (this.counts.get(id) ?? 0) + n);
      this.onError(error);
    }).finally(() => (this.flushing = null));
    await this.flushing;
  }

  /** Stops the timer and writes what is pending. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
