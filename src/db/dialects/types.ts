import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';

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
   * The transactions the statement's snapshot sees running, as ids joined by commas: versions of
   * counts it cannot see yet (catalog/download-counts.ts). Empty where writers commit one at a time
   * and versions become visible in order (SQLite).
   */
  runningTransactions: RawBuilder<string>;
  /**
   * Ends the SELECT that counts downloads of the sounds it joins: keeps those sounds from being
   * removed until the commit, so that a removal made meanwhile cannot fail the count's key check.
   */
  keepJoinedSounds: RawBuilder<unknown>;
  /**
   * The transactions writing to the change log as the statement runs (after its snapshot), as
   * ids joined by commas; or null where writers commit one at a time and log numbers are visible
   * in order (SQLite). With it, the change feed tells a log number still being written from one
   * rolled back (catalog/change-log-frontier.ts).
   */
  changeLogWriters: RawBuilder<string> | null;
}

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: SqlDialect;
  /**
   * For the server: SQLite's WAL checkpoints, with their fsyncs, run on a thread of their own
   * from now on, not in the commits of the event loop. Should that thread fail, the commits
   * checkpoint again and `onFailure` is told why. Nothing to do on PostgreSQL.
   */
  checkpointInBackground(onFailure: (reason: string) => void): void;
  /**
   * SQLite's data_version: a number that moves whenever another connection (another process: a
   * command, a second server on the file) commits, read without waiting for Kysely's connection.
   * This connection's own commits leave it as it is. Absent on PostgreSQL, where only a query
   * could tell another process's commit.
   */
  dataVersion?(): number;
  /** The connection pool's figures, read when metrics are scraped (PostgreSQL; SQLite has no pool). */
  pool?(): PoolFigures;
  close(): Promise<void>;
}

export interface PoolFigures {
  /** Connections open, idle or busy. */
  open: number;
  idle: number;
  /** Queries waiting for a connection: all are busy and the pool is at its maximum. */
  waiting: number;
  max: number;
  /** Connections the server dropped (a restart, say) since the pool was made. */
  errors: number;
}
