import { sql, type Kysely } from 'kysely';
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
