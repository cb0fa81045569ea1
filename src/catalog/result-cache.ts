export interface ResultCacheOptions<T> {
  /** How long an answer is kept. Writes clear the cache, so this only bounds a missed clear. */
  ttlMs?: number;
  /** The most the cache holds, in the units `weigh` gives (for lists: sounds). */
  capacity?: number;
  weigh?: (value: T) => number;
  now?: () => number;
}

interface Entry<T> {
  value: Promise<T>;
  until: number;
  /** 0 while loading; the entry counts against the capacity once its answer is known. */
  weight: number;
}

/**
 * A small cache of recent list answers. The catalog changes rarely and the same searches repeat
 * (agents especially). Writes made by this process clear it at once; writes by another process
 * change the version passed in, which clears it too. Requests that miss together share one load,
 * so an expensive query that expires under load runs once, not once per waiting request.
 */
export class ResultCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
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
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (hit) this.remove(key, hit);
    const entry: Entry<T> = { value: load(), until: now + this.ttlMs, weight: 0 };
    this.entries.set(key, entry);
    entry.value.then((value) => {
      // Cleared while loading (a write happened): the answer is not kept.
      if (this.entries.get(key) !== entry) return;
      entry.weight = this.weigh(value);
      this.weight += entry.weight;
      this.evict();
    }, () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  private remove(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
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
