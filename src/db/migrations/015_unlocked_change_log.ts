import { sql, type Kysely } from 'kysely';
import type { Engine } from './engine.ts';

/**
 * PostgreSQL's change log trigger no longer takes one advisory lock for every writer: readers
 * now read the log only up to a frontier below which no number is still to come
 * (catalog/change-log-frontier.ts), so numbers need not become visible in order. SQLite's
 * triggers are unchanged: it commits one writer at a time.
 *
 * `catalog_changes_pruned` says how far the log was pruned, so that a reader tells numbers
 * pruned from numbers still being written. Every number below the oldest row is settled now.
 *
 * Frozen: written out in full, never calling code that may change later.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('catalog_changes_pruned')
    .addColumn('upto', 'bigint', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO catalog_changes_pruned (upto) SELECT coalesce(min(seq), 1) - 1 FROM catalog_changes`.execute(
    db,
  );
  if (engine !== 'postgres') return;
  await sql`CREATE OR REPLACE FUNCTION log_sound_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO catalog_changes(sound_seq, sound_id, kind, changed_at) VALUES (
        CASE WHEN TG_OP = 'DELETE' THEN OLD.seq ELSE NEW.seq END,
        CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END,
        CASE TG_OP WHEN 'INSERT' THEN 'added' WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END,
        to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
      RETURN NULL;
    END $$`.execute(db);
}
