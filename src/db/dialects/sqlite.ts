import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import SQLite from './better-sqlite3.js';
import { Kysely, sql, SqliteDialect } from 'kysely';
import type { DatabaseHandle } from '../index.ts';
import type { Database } from '../schema.ts';
import type { SqlDialect } from './types.ts';

/** SQLite's own WAL size, in pages, at which a commit checkpoints. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  autoIncrementType: 'integer',
  bigAutoIncrementType: 'integer',
  autoIncrementKey: (column) => column.primaryKey().autoIncrement(),

  async createTextIndex(db: Kysely<Database>): Promise<void> {
    // External-content FTS table over sounds.search_text, kept in step by triggers.
    await sql`CREATE VIRTUAL TABLE sounds_fts USING fts5(
      search_text, content='sounds', content_rowid='seq', tokenize='trigram')`.execute(db);
    await sql`CREATE TRIGGER sounds_fts_insert AFTER INSERT ON sounds BEGIN
      INSERT INTO sounds_fts(rowid, search_text) VALUES (new.seq, new.search_text);
    END`.execute(db);
    await sql`CREATE TRIGGER sounds_fts_delete AFTER DELETE ON sounds BEGIN
      INSERT INTO sounds_fts(sounds_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
    END`.execute(db);
    await sql`CREATE TRIGGER sounds_fts_update AFTER UPDATE OF search_text ON sounds BEGIN
      INSERT INTO sounds_fts(sounds_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
      INSERT INTO sounds_fts(rowid, search_text) VALUES (new.seq, new.search_text);
    END`.execute(db);
  },

  async dropTextIndex(db: Kysely<Database>): Promise<void> {
    for (const trigger of ['sounds_fts_insert', 'sounds_fts_delete', 'sounds_fts_update']) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
    }
    await sql`DROP TABLE IF EXISTS sounds_fts`.execute(db);
  },

  async createChangeLog(db: Kysely<Database>): Promise<void> {
    await sql`CREATE TRIGGER sounds_log_insert AFTER INSERT ON sounds BEGIN
      INSERT INTO catalog_changes(sound_seq) VALUES (new.seq);
    END`.execute(db);
    await sql`CREATE TRIGGER sounds_log_update AFTER UPDATE ON sounds BEGIN
      INSERT INTO catalog_changes(sound_seq) VALUES (new.seq);
    END`.execute(db);
    await sql`CREATE TRIGGER sounds_log_delete AFTER DELETE ON sounds BEGIN
      INSERT INTO catalog_changes(sound_seq) VALUES (old.seq);
    END`.execute(db);
  },

  // One writer at a time: the next number after the largest is taken under the write lock, so
  // versions are committed in order and every committed one is settled.
  downloadsVersion: sql<number>`(SELECT coalesce(max(version), 0) + 1 FROM sound_downloads)`,
  settledDownloadsVersion: sql<number>`${sql.lit(Number.MAX_SAFE_INTEGER)}`,
  // The writing transaction holds the database's one write lock: nothing is removed meanwhile.
  keepJoinedSounds: sql``,
  // One writer at a time: log numbers become visible in the order they are taken.
  changeLogSnapshot: null,

  async describeChangeLog(db: Kysely<Database>): Promise<void> {
    const now = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
    const triggers = [
      { name: 'sounds_log_insert', event: sql`INSERT`, row: sql`new`, kind: 'added' },
      { name: 'sounds_log_update', event: sql`UPDATE`, row: sql`new`, kind: 'updated' },
      { name: 'sounds_log_delete', event: sql`DELETE`, row: sql`old`, kind: 'removed' },
    ];
    for (const { name, event, row, kind } of triggers) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(db);
      await sql`CREATE TRIGGER ${sql.id(name)} AFTER ${event} ON sounds BEGIN
        INSERT INTO catalog_changes(sound_seq, sound_id, kind, changed_at) VALUES (${row}.seq, ${row}.id, ${sql.lit(kind)}, ${now});
      END`.execute(db);
    }
  },
};

/** The embedded database: one SQLite file in the data folder, in WAL mode, and its dialect. */
export function openSqlite(file: string): DatabaseHandle {
  mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only a power cut can lose the last commits.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  let checkpointer: { stop(): Promise<void> } | null = null;
  return {
    db,
    dialect: sqliteDialect,
    checkpointInBackground(onFailure) {
      checkpointer ??= startCheckpointer(connection, file, onFailure);
    },
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** How often the checkpointer moves the WAL into the database file: under load, a few hundred pages each time. */
const CHECKPOINT_INTERVAL_MS = 200;

/**
 * Checkpoints from a worker thread (sqlite-checkpointer.js) instead of the commits of this
 * connection. Should the worker fail, this connection checkpoints again as SQLite's default has it.
 */
function startCheckpointer(connection: BetterSqlite3.Database, file: string, onFailure: (reason: string) => void): { stop(): Promise<void> } {
  const worker = new Worker(new URL('./sqlite-checkpointer.js', import.meta.url), { workerData: { file, intervalMs: CHECKPOINT_INTERVAL_MS } });
  connection.pragma('wal_autocheckpoint = 0');
  let running = true;
  const fallBack = (reason: string) => {
    if (!running || !connection.open) return;
    running = false;
    connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    void worker.terminate();
    onFailure(reason);
  };
  worker.on('message', (message: { failed?: string }) => message.failed !== undefined && fallBack(message.failed));
  worker.on('error', (error) => fallBack(error.message));
  worker.on('exit', (code) => fallBack(`the checkpointer thread ended (status ${code})`));
  // The worker alone never keeps the process alive.
  worker.unref();
  return {
    async stop() {
      if (!running) return;
      running = false;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      // Held again while it finishes, or the process could end before the wait does.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}

/**
 * Kysely prepares every query anew; preparing costs more than running most of ours. Queries are
 * built from a small set of shapes with bound values, so caching statements by SQL text pays.
 */
function withStatementCache(connection: BetterSqlite3.Database, capacity = 500) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => connection.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        // Re-insert to keep the map in least-recently-used order.
        cache.delete(sql);
      } else {
        statement = connection.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}
