import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import type { DatabaseHandle } from '../index.ts';
import type { Database } from '../schema.ts';
import type { SqlDialect } from './types.ts';

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
