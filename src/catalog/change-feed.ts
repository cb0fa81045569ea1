import type { CatalogRecord } from '@sound-catalog/catalog-index';

/**
 * One sound as the search index holds it (the engine's own shape); its `seq` is the database's
 * key for the row, what the change feed names.
 */
export type { CatalogRecord };

/** What changed after a cursor: the rows as they are now, and those that are gone. */
export interface CatalogChanges {
  changed: CatalogRecord[];
  removed: number[];
  cursor: number;
}

/** One change as a mirror reads it: which sound, what happened and when (ISO 8601). */
export interface CatalogChange {
  id: string;
  change: 'added' | 'updated' | 'removed';
  at: string;
}

/**
 * A page of the change log after a log number, and the number to continue after; or, when the log
 * no longer holds everything after that number (pruned, or written before changes were described),
 * `gone` with the newest number: a mirror walks the catalog again and follows changes from there.
 */
export type ChangeList = { changes: CatalogChange[]; next: number } | { gone: true; newest: number };

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
  /** What mirrors read: the changes after log number `after`, at most `limit` of them. */
  listChanges(after: number, limit: number): Promise<ChangeList>;
  /** Calls `wake` whenever changes may be waiting; returns a function that stops it. */
  watch(wake: () => void): () => void;
}
