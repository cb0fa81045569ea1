import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseHandle } from '../index.ts';
import type { Database } from '../schema.ts';
import type { SqlDialect } from './types.ts';

/** Any fixed number: the lock that puts the catalog change log's writers in a row. */
const CHANGE_LOG_LOCK = 0x50_43_4c_47;

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  autoIncrementType: 'serial',
  bigAutoIncrementType: 'bigserial',
  autoIncrementKey: (column) => column.primaryKey(),

  // Searches were never answered by PostgreSQL: by the time it was supported, the in-memory index
  // (@sound-catalog/catalog-index) answered them. Migration 001 asks for the text index SQLite had; there is none.
  async createTextIndex(): Promise<void> {},
  async dropTextIndex(): Promise<void> {},

  async createChangeLog(db: Kysely<Database>): Promise<void> {
    // Readers of the log keep the highest number they have read and ask for what is above it. A
    // sequence hands out numbers in the order transactions ask, not the order they commit, so a
    // reader could pass a number whose row is not committed yet and never see it. The lock, held
    // to the end of the writing transaction, makes the next writer take its number only after
    // this one has committed: numbers become visible in order.
    await sql`CREATE FUNCTION log_sound_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(${sql.lit(CHANGE_LOG_LOCK)});
        INSERT INTO catalog_changes(sound_seq) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.seq ELSE NEW.seq END);
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER sounds_log AFTER INSERT OR UPDATE OR DELETE ON sounds
      FOR EACH ROW EXECUTE FUNCTION log_sound_change()`.execute(db);
  },

  // Writers run side by side, without a lock: a count's version is its transaction's id, and the
  // oldest transaction still running (the snapshot's xmin) bounds what a reader may pass. Ids are
  // handed out in order, so a version below it belongs to a transaction that has ended.
  downloadsVersion: sql<number>`CAST(CAST(pg_current_xact_id() AS text) AS bigint)`,
  settledDownloadsVersion: sql<number>`CAST(CAST(pg_snapshot_xmin(pg_current_snapshot()) AS text) AS bigint)`,
  // A sound removed after the statement's snapshot is skipped rather than counted against a key
  // that is gone; one still there cannot be removed until the count commits.
  keepJoinedSounds: sql`FOR KEY SHARE OF sounds`,

  async describeChangeLog(db: Kysely<Database>): Promise<void> {
    // The same function, now also writing the sound's id, the kind of change and the time. The
    // clock's time, not the transaction's start: a log row's time is when the change was made.
    await sql`CREATE OR REPLACE FUNCTION log_sound_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(${sql.lit(CHANGE_LOG_LOCK)});
        INSERT INTO catalog_changes(sound_seq, sound_id, kind, changed_at) VALUES (
          CASE WHEN TG_OP = 'DELETE' THEN OLD.seq ELSE NEW.seq END,
          CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END,
          CASE TG_OP WHEN 'INSERT' THEN 'added' WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END,
          to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
        RETURN NULL;
      END $$`.execute(db);
  },
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
    types: { getTypeParser: (oid: number, format?: string) => (oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text')) },
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
    pool: () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max, errors }),
    close: () => db.destroy(),
  };
}
