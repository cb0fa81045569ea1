import { sql, type Kysely } from 'kysely';
import type { Engine } from './engine.ts';

/**
 * Loops: where a sound loops, in sample frames of the catalog's file (the MP3, at its own rate)
 * from its start; `loop_end_sample` is the frame after the loop's last (exclusive). Both null for
 * a sound that is no loop. Adding columns updates no row: the change log's triggers (which fire on
 * every update of `sounds`, whatever its columns) log nothing now, and every later write of a
 * loop is logged as an update like any other field.
 *
 * Frozen: written out in full for each engine, never calling code that may change later.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const type = engine === 'postgres' ? sql.raw('bigint') : sql.raw('INTEGER');
  await sql`ALTER TABLE sounds ADD COLUMN loop_start_sample ${type}`.execute(db);
  await sql`ALTER TABLE sounds ADD COLUMN loop_end_sample ${type}`.execute(db);
}
