import type { Db } from '../db/index.ts';
import type { RenditionFacts } from './renditions.ts';

/** A stored rendition as eviction sees it. */
export interface StoredRendition {
  fileKey: string;
  bytes: number;
}

/**
 * The record of stored renditions, in the shared database: each file's size and facts, when it
 * was made and last served. Every instance reads the same total and the same order, so several
 * instances sharing one file store keep it under one bound together.
 */
export class RenditionStore {
  constructor(private readonly db: Db) {}

  async facts(fileKey: string): Promise<RenditionFacts | null> {
    const row = await this.db.selectFrom('renditions')
      .select(['duration', 'integrated_lufs', 'true_peak_db'])
      .where('file_key', '=', fileKey)
      .executeTakeFirst();
    if (!row) return null;
    return { duration: row.duration, loudness: { integrated_lufs: row.integrated_lufs, true_peak_db: row.true_peak_db } };
  }

  /** Records a file just made (again, when another instance made it too or its file had vanished). */
  async add(fileKey: string, bytes: number, facts: RenditionFacts, now: Date): Promise<void> {
    const at = now.toISOString();
    const values = {
      bytes, duration: facts.duration, integrated_lufs: facts.loudness.integrated_lufs, true_peak_db: facts.loudness.true_peak_db,
    };
    await this.db.insertInto('renditions')
      .values({ file_key: fileKey, ...values, made_at: at, last_served_at: at })
      .onConflict((oc) => oc.column('file_key').doUpdateSet({ ...values, made_at: at, last_served_at: at }))
      .execute();
  }

  /** Moves these renditions to the recent end of the order: one statement for a whole batch. */
  async served(fileKeys: string[], at: Date): Promise<void> {
    // In slices, well under every engine's limit on a statement's parameters.
    for (let start = 0; start < fileKeys.length; start += 500) {
      const slice = fileKeys.slice(start, start + 500);
      await this.db.updateTable('renditions').set({ last_served_at: at.toISOString() }).where('file_key', 'in', slice).execute();
    }
  }

  async totalBytes(): Promise<number> {
    const row = await this.db.selectFrom('renditions').select((eb) => eb.fn.sum<number | string | null>('bytes').as('total')).executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** The least recently served renditions first. */
  async leastRecentlyServed(limit: number): Promise<StoredRendition[]> {
    const rows = await this.db.selectFrom('renditions').select(['file_key', 'bytes'])
      .orderBy('last_served_at').orderBy('file_key').limit(limit).execute();
    return rows.map((row) => ({ fileKey: row.file_key, bytes: Number(row.bytes) }));
  }

  /** Deletes the record; true for the one caller (of every instance) whose delete found it. */
  async remove(fileKey: string): Promise<boolean> {
    const result = await this.db.deleteFrom('renditions').where('file_key', '=', fileKey).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
