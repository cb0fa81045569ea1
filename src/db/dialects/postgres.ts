import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.ts';
import type { DatabaseHandle, SqlDialect } from './types.ts';

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  // Writers run side by side, without a lock: a count's version is its transaction's id, so a
  // count is visible exactly when the transaction of its version is no longer in a snapshot's
  // running list. Ids are handed out in order: one not running below a version read has ended.
  downloadsVersion: sql<number>`CAST(CAST(pg_current_xact_id() AS text) AS bigint)`,
  runningTransactions: sql<string>`(
    SELECT coalesce(string_agg(CAST(running AS text), ','), '') FROM pg_snapshot_xip(pg_current_snapshot()) AS running)`,
  // A sound removed after the statement's snapshot is skipped rather than counted against a key
  // that is gone; one still there cannot be removed until the count commits.
  keepJoinedSounds: sql`FOR KEY SHARE OF sounds`,
  // Writers of the change log run side by side: a number can become visible after a larger one.
  // The feed reads the log only up to a frontier it settles with these ids (no lock is shared).
  // A transaction that took a log number holds catalog_changes' write lock until it has ended, so
  // the holders of that lock, read after the statement's snapshot, include the writer of every
  // number that snapshot misses: a long transaction elsewhere (another table, schema or database)
  // holds nothing back. Not the snapshot's running list: it leaves out a transaction whose id is
  // at or past its xmax, which a writer begun after one with a larger log number can have.
  changeLogWriters: sql<string>`(
    SELECT coalesce(string_agg(virtualtransaction, ','), '') FROM pg_locks
    WHERE locktype = 'relation' AND relation = CAST('catalog_changes' AS regclass)
      AND mode = 'RowExclusiveLock' AND granted)`,
};

/** How long a request may wait for PostgreSQL before it fails: never hang while it is away. */
const CONNECT_TIMEOUT_MS = 3000;
const QUERY_TIMEOUT_MS = 10_000;

/** A pool of connections to PostgreSQL (DATABASE_URL), and its dialect. */
export function openPostgres(url: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    // Counts and the change log's numbers are int8; every one of ours fits a JavaScript number.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text'),
    },
  });
  // A connection the server drops (a restart, say) is an error event: on the pool while the
  // connection is idle, on the connection while a query holds it. That query fails by itself
  // and the pool throws the connection away when it comes back; unheard, the event would end
  // the process. The next query opens a new connection.
  // Counted once, on the connection: the pool re-emits an idle connection's error as its own.
  let errors = 0;
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => errors++));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: postgresDialect,
    checkpointInBackground: () => undefined,
    pool: () => ({
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
      errors,
    }),
    close: () => db.destroy(),
  };
}
