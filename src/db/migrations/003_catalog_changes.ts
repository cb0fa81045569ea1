import { sql, type Kysely } from 'kysely';
import type { Engine } from './engine.ts';

/**
 * Searches are answered by the in-memory index, which follows a numbered log of changed sounds
 * (catalog/database-change-feed.ts): the database's own text index is no longer read, so it goes,
 * and every write stops paying for it. Every insert, update and delete of `sounds`, by any
 * connection, appends the row's `seq` to `catalog_changes` in the same transaction.
 *
 * Frozen: written out in full for each engine, never calling code that may change later.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  if (engine === 'sqlite') {
    for (const trigger of ['sounds_fts_insert', 'sounds_fts_delete', 'sounds_fts_update']) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
    }
    await sql`DROP TABLE IF EXISTS sounds_fts`.execute(db);
  }
  await db.schema
    .createTable('catalog_changes')
    .addColumn('seq', engine === 'sqlite' ? 'integer' : 'bigserial', (c) =>
      engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('sound_seq', 'integer', (c) => c.notNull())
    .execute();
  if (engine === 'sqlite') {
    for (const [name, event, row] of [
      ['sounds_log_insert', 'INSERT', 'new'],
      ['sounds_log_update', 'UPDATE', 'new'],
      ['sounds_log_delete', 'DELETE', 'old'],
    ] as const) {
      await sql`CREATE TRIGGER ${sql.id(name)} AFTER ${sql.raw(event)} ON sounds BEGIN
        INSERT INTO catalog_changes(sound_seq) VALUES (${sql.raw(row)}.seq);
      END`.execute(db);
    }
    return;
  }
  // Readers kept the highest number they had read and asked for what is above it, so numbers had
  // to become visible in order: an advisory lock, held to the end of the writing transaction, put
  // writers in a row (lifted by migration 015).
  await sql`CREATE FUNCTION log_sound_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(1346587719);
      INSERT INTO catalog_changes(sound_seq) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.seq ELSE NEW.seq END);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sounds_log AFTER INSERT OR UPDATE OR DELETE ON sounds
    FOR EACH ROW EXECUTE FUNCTION log_sound_change()`.execute(db);
}
