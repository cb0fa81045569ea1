export interface ResultCacheOptions<T> {
  /** How long an answer is kept. Writes clear the cache, so this only bounds a missed clear. */
  ttlMs?: number;
  /** The most the cache holds, in the units `weigh` gives (for lists: sounds). */
  capacity?: number;
  weigh?: (value: T) => number;
  now?: () => number;
}

/** How many queries asked once the cache remembers, to keep their answers the second time. */
const SEEN_CAPACITY = 10_000;

interface Entry<T> {
  value: Promise<T>;
  /** The answer, once loaded and kept. */
  loaded?: T;
  until: number;
  /** 0 while loading; the entry counts against the capacity once its answer is known. */
  weight: number;
}

/**
 * A small cache of recent list answers. The catalog changes rarely and the same searches repeat
 * (agents especially). Writes made by this process clear it at once; writes by another process
 * change the version passed in, which clears it too. Requests that miss together share one load,
 * so an expensive query that expires under load runs once, not once per waiting request.
 *
 * An answer is kept from the second time its query is asked (while the cache remembers the first:
 * up to SEEN_CAPACITY queries). Queries asked once, a crawler's or an agent's exploring, would
 * otherwise push out answers that are asked again, and each would live in memory until pushed
 * out: measured (bench/, 12,000 sounds, every request a new query) the server grew to 306 MB.
 */
export class ResultCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Kept answers to their entries: which answers are still this cache's (`holds`). */
  private readonly kept = new Map<T, Entry<T>>();
  /** Queries asked before (writes do not clear it: what is asked often stays so). */
  private readonly seen = new Set<string>();
  private version: number | null = null;
  private weight = 0;
  private readonly ttlMs: number;
  private readonly capacity: number;
  private readonly weigh: (value: T) => number;
  private readonly now: () => number;

  constructor(options: ResultCacheOptions<T> = {}) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.capacity = options.capacity ?? 1000;
    this.weigh = options.weigh ?? (() => 1);
    this.now = options.now ?? (() => performance.now());
  }

  getOrLoad(key: string, version: number, load: () => Promise<T>): Promise<T> {
    this.sync(version);
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (hit) this.remove(key, hit);
    const keep = this.seen.has(key);
    if (!keep) this.remember(key);
    const entry: Entry<T> = { value: load(), until: now + this.ttlMs, weight: 0 };
    // While it loads, the entry is shared by every request for the same query, kept or not.
    this.entries.set(key, entry);
    entry.value.then((value) => {
      // Cleared while loading (a write happened): the answer is not kept.
      if (this.entries.get(key) !== entry) return;
      if (!keep) {
        this.entries.delete(key);
        return;
      }
      entry.loaded = value;
      entry.weight = this.weigh(value);
      this.weight += entry.weight;
      this.kept.set(value, entry);
      this.evict();
    }, () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value;
  }

  /**
   * True while this exact answer is one the cache would give: no write has cleared it, it has not
   * expired or been evicted. What was derived from an answer (rendered text) is good as long.
   */
  holds(value: T, version: number): boolean {
    this.sync(version);
    const entry = this.kept.get(value);
    return entry !== undefined && entry.until > this.now();
  }

  clear(): void {
    this.entries.clear();
    this.kept.clear();
    this.weight = 0;
  }

  private remember(key: string): void {
    if (this.seen.size >= SEEN_CAPACITY) this.seen.clear();
    this.seen.add(key);
  }

  private sync(version: number): void {
    if (version === this.version) return;
    this.clear();
    this.version = version;
  }

  private remove(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    if (entry.loaded !== undefined && this.kept.get(entry.loaded) === entry) this.kept.delete(entry.loaded);
    this.weight -= entry.weight;
  }

  /** Drops the oldest answers until the cache is within its capacity. */
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.weight <= this.capacity) return;
      this.remove(key, entry);
    }
  }
}
