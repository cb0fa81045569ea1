/** An owner read longer ago than this is read again, whatever the database says. */
const MAX_AGE_MS = 1000;
/** Past this many keys the owners kept are let go at once. Unknown keys are never kept. */
export const MAX_KEYS = 10_000;

/**
 * The owners of the keys presented in the last second, by key hash, kept while the database is
 * as it was when they were read. Every API request presents a key; reading SQLite's data version
 * costs less than reading the key's row through Kysely (docs/performance.md gives how much).
 *
 * Nothing is kept longer than the database stays the same: `dataVersion` (SQLite's data_version,
 * db/dialects/types.ts) moves at once when another process commits, and the store's own writes to
 * accounts and keys call `forget`. So a key revoked or a plan changed, by this process or a
 * command, counts from the next request on, as when every request read the row.
 */
export class RecentOwners<Owner> {
  private readonly owners = new Map<string, { owner: Owner; readAt: number }>();
  /** The data version the owners kept were read at; NaN once forgotten. */
  private version = Number.NaN;

  constructor(
    private readonly dataVersion: () => number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The owner of the key with this hash: kept, or read by `read` (null: no such key, not kept). */
  async owner(hash: string, read: () => Promise<Owner | null>): Promise<Owner | null> {
    const version = this.dataVersion();
    if (version !== this.version) {
      this.owners.clear();
      this.version = version;
    }
    const kept = this.owners.get(hash);
    if (kept !== undefined && this.now() - kept.readAt < MAX_AGE_MS) return kept.owner;
    const readAt = this.now();
    const owner = await read();
    if (owner === null) this.owners.delete(hash);
    // Kept only if nothing was written meanwhile that this process has heard of.
    else if (this.version === version) {
      if (this.owners.size >= MAX_KEYS) this.owners.clear();
      this.owners.set(hash, { owner, readAt });
    }
    return owner;
  }

  /** Lets every owner kept go: a write of this process, which leaves the data version as it is. */
  forget(): void {
    this.owners.clear();
    this.version = Number.NaN;
  }
}
