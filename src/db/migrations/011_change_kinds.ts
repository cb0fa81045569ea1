import { sql, type Kysely } from 'kysely';
import type { Engine } from './engine.ts';

/**
 * The change log becomes readable by mirrors (GET /api/v1/changes): each row also says which
 * sound (its id: a removed sound's row is gone), what happened and when. Rows written before this
 * migration know none of that and are left without it: a mirror asking from before the first
 * described row is told to walk the catalog again (410), never given a partial answer. Times are
 * the clock's (ISO 8601, UTC, milliseconds), not the transaction's start.
 *
 * Frozen: written out in full for each engine, never calling code that may change later.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await db.schema.alterTable('catalog_changes').addColumn('sound_id', 'text').execute();
  await db.schema.alterTable('catalog_changes').addColumn('kind', 'text').execute();
  await db.schema.alterTable('catalog_changes').addColumn('changed_at', 'text').execute();
  if (engine === 'sqlite') {
    const now = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
    for (const [name, event, row, kind] of [
      ['sounds_log_insert', 'INSERT', 'new', 'added'],
      ['sounds_log_update', 'UPDATE', 'new', 'updated'],
      ['sounds_log_delete', 'DELETE', 'old', 'removed'],
    ] as const) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(db);
      await sql`CREATE TRIGGER ${sql.id(name)} AFTER ${sql.raw(event)} ON sounds BEGIN
        INSERT INTO catalog_changes(sound_seq, sound_id, kind, changed_at)
        VALUES (${sql.raw(row)}.seq, ${sql.raw(row)}.id, ${sql.lit(kind)}, ${now});
      END`.execute(db);
    }
    return;
  }
  await sql`CREATE OR REPLACE FUNCTION log_sound_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(1346587719);
      INSERT INTO catalog_changes(sound_seq, sound_id, kind, changed_at) VALUES (
        CASE WHEN TG_OP = 'DELETE' THEN OLD.seq ELSE NEW.seq END,
        CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END,
        CASE TG_OP WHEN 'INSERT' THEN 'added' WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END,
        to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
      RETURN NULL;
    END $$`.execute(db);
}
