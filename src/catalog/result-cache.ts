/**
 * A small cache of recent list answers. The catalog changes rarely and the same searches repeat
 * (agents especially), so answers are kept for a few seconds. Writes made by this process clear
 * it at once; writes by another process change the version passed in, which clears it too.
 */
export class ResultCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  private version: number | null = null;

  constructor(
    private readonly ttlMs = 5000,
    private readonly capacity = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async getOrLoad(key: string, version: number, load: () => Promise<T>): Promise<T> {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = await load();
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: now + this.ttlMs });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
