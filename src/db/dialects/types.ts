import type { RawBuilder } from 'kysely';

/**
 * What differs between database engines, in one place per engine. Services and stores call
 * these instead of branching on the engine.
 */
export interface SqlDialect {
  name: 'sqlite' | 'postgres';
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
