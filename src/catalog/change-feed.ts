import type { Sound } from './sound.ts';

/** One sound as the search index holds it: what lists show, and what they sort and filter by. */
export interface CatalogRecord extends Sound {
  /** The database's own key for the row: what the change feed names. */
  seq: number;
  createdAt: string;
  /** When the record last changed (ISO 8601); the creation time when absent. */
  updatedAt?: string;
  /** The audio descriptors similar sounds are found by; null (or absent) until measured. */
  descriptors?: number[] | null;
}

/** What changed after a cursor: the rows as they are now, and those that are gone. */
export interface CatalogChanges {
  changed: CatalogRecord[];
  removed: number[];
  cursor: number;
}

/**
 * How the search index learns about every change to the catalog, made by this process or any
 * other (an ingest run, `samples set`, another instance counting a download). The database keeps
 * a numbered log of changed rows; each reader remembers how far it has read. One implementation
 * per database engine.
 */
export interface CatalogChangeFeed {
  /** Every sound, a page at a time, and the cursor to follow changes from afterwards. */
  loadAll(onPage: (records: CatalogRecord[]) => void): Promise<number>;
  /**
   * The changes after `cursor`, at most about `limit` rows, or 'reload' when the log no longer
   * reaches back that far (the reader must load everything again).
   */
  changesSince(cursor: number, limit: number): Promise<CatalogChanges | 'reload'>;
  /** Calls `wake` whenever changes may be waiting; returns a function that stops it. */
  watch(wake: () => void): () => void;
}
