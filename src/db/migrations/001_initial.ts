import { sql, type Kysely } from 'kysely';
import type { Engine } from './engine.ts';

/** The first schema. Frozen: written out in full for each engine, never calling code that may change later. */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('sounds')
    .addColumn('seq', engine === 'sqlite' ? 'integer' : 'serial', (c) =>
      engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('license', 'text')
    .addColumn('duration', 'double precision', (c) => c.notNull())
    .addColumn('onset_ms', 'double precision')
    .addColumn('peak_ms', 'double precision')
    .addColumn('tail_ms', 'double precision')
    .addColumn('integrated_lufs', 'double precision')
    .addColumn('true_peak_db', 'double precision')
    .addColumn('waveform', 'text')
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('num_downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_sample', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('content_hash', 'text', (c) => c.notNull().unique())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One index per sort order, each ending in the tiebreak, so a page is an index range.
  for (const column of ['num_downloads', 'created_at', 'duration', 'name']) {
    await db.schema.createIndex(`sounds_by_${column}`).on('sounds').columns([column, 'id']).execute();
  }
  await db.schema.createIndex('sounds_samples').on('sounds').columns(['is_sample', 'id']).execute();
  await db.schema.createIndex('sounds_by_category').on('sounds').columns(['category', 'num_downloads']).execute();

  await db.schema
    .createTable('sound_tags')
    .addColumn('sound_seq', 'integer', (c) => c.notNull().references('sounds.seq').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sound_tags_pk', ['tag', 'sound_seq'])
    .execute();
  await db.schema.createIndex('sound_tags_by_sound').on('sound_tags').column('sound_seq').execute();
  // Searches went to the database then. SQLite: an external-content FTS table over
  // sounds.search_text, kept in step by triggers. PostgreSQL never had one: by the time it was
  // supported, the in-memory index answered searches.
  if (engine === 'sqlite') {
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
  }

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('is_operator', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_by_account').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('usage_daily')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'day'])
    .execute();
  await db.schema
    .createTable('key_usage_daily')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('key_usage_daily_pk', ['key_id', 'day'])
    .execute();
}
