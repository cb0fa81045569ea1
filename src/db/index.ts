import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration as KyselyMigration } from 'kysely';
import { sqliteDialect } from './dialects/sqlite.ts';
import type { SqlDialect } from './dialects/types.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: SqlDialect;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = openSqlite(path.join(options.dataDir, 'catalog.sqlite'));
  await migrate(handle);
  return handle;
}

function openSqlite(file: string): DatabaseHandle {
  mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only a power cut can lose the last commits.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  return { db, dialect: sqliteDialect, close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; preparing costs more than running most of ours. Queries are
 * built from a small set of shapes with bound values, so caching statements by SQL text pays.
 */
function withStatementCache(connection: SQLite.Database, capacity = 500) {
  const cache = new Map<string, SQLite.Statement>();
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

async function migrate(handle: DatabaseHandle): Promise<void> {
  const provider = {
    async getMigrations(): Promise<Record<string, KyselyMigration>> {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, migration]) => [name, { up: (db: Kysely<any>) => migration.up(db, handle.dialect) }]),
      );
    },
  };
  const { error } = await new Migrator({ db: handle.db, provider }).migrateToLatest();
  if (error) throw error;
}
