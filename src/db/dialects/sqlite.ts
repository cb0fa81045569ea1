import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import SQLite from './better-sqlite3.js';
import { Kysely, sql, SqliteDialect } from 'kysely';
import type { Database } from '../schema.ts';
import type { DatabaseHandle, SqlDialect } from './types.ts';

/** SQLite's own WAL size, in pages, at which a commit checkpoints. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  // One writer at a time: the next number after the largest is taken under the write lock, so
  // versions are committed in order and a reader never sees one still running below another.
  downloadsVersion: sql<number>`(SELECT coalesce(max(version), 0) + 1 FROM sound_downloads)`,
  runningTransactions: sql<string>`''`,
  // The writing transaction holds the database's one write lock: nothing is removed meanwhile.
  keepJoinedSounds: sql``,
  // One writer at a time: log numbers become visible in the order they are taken.
  changeLogWriters: null,
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
  const dataVersion = connection.prepare('PRAGMA data_version').pluck();
  let checkpointer: { stop(): Promise<void> } | null = null;
  return {
    db,
    dialect: sqliteDialect,
    dataVersion: () => dataVersion.get() as number,
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
function startCheckpointer(
  connection: BetterSqlite3.Database,
  file: string,
  onFailure: (reason: string) => void,
): { stop(): Promise<void> } {
  const worker = new Worker(new URL('./sqlite-checkpointer.js', import.meta.url), {
    workerData: { file, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
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
