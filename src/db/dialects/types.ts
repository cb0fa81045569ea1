import type { ColumnDefinitionBuilder, Kysely, RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * What differs between database engines, in one place per engine. Services and stores call
 * these instead of branching on the engine.
 */
export interface SqlDialect {
  name: 'sqlite' | 'postgres';
  /** Column type for an auto-incrementing integer primary key. */
  autoIncrementType: 'integer' | 'serial';
  /** The same for a key that may pass 2^31 (the change log: a row per download). */
  bigAutoIncrementType: 'integer' | 'bigserial';
  /** Makes a column of either type the auto-numbered primary key. */
  autoIncrementKey(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** The text index the first migration made (searches went to the database then). */
  createTextIndex(db: Kysely<Database>): Promise<void>;
  /** Removes it again (migration 003: the in-memory index answers searches). */
  dropTextIndex(db: Kysely<Database>): Promise<void>;
  /**
   * Makes every insert, update and delete of `sounds`, by any connection, append the row's `seq`
   * to `catalog_changes` in the same transaction: what the catalog change feed reads.
   */
  createChangeLog(db: Kysely<Database>): Promise<void>;
  /**
   * Makes the change log's triggers write, beside the row's `seq`, the sound's id, what happened
   * (`added`, `updated` or `removed`) and when (ISO 8601, UTC, milliseconds): what a mirror
   * reads from GET /api/v1/changes (migration 011).
   */
  describeChangeLog(db: Kysely<Database>): Promise<void>;
  /**
   * The version a transaction gives the download counts it writes (catalog/download-counts.ts):
   * greater than the version of every count already committed.
   */
  downloadsVersion: RawBuilder<number>;
  /**
   * Versions below this one are settled: no transaction still running writes one, so a reader
   * that has read every count below it misses none by going on from there.
   */
  settledDownloadsVersion: RawBuilder<number>;
  /**
   * Ends the SELECT that counts downloads of the sounds it joins: keeps those sounds from being
   * removed until the commit, so that a removal made meanwhile cannot fail the count's key check.
   */
  keepJoinedSounds: RawBuilder<unknown>;
  /**
   * The statement's snapshot as `xmin:xmax:xip,...` (PostgreSQL's text form), or null where
   * writers commit one at a time and log numbers are visible in order (SQLite). With it, the
   * change feed tells a log number still being written from one rolled back
   * (catalog/change-log-frontier.ts).
   */
  changeLogSnapshot: RawBuilder<string> | null;
}
