import type { Kysely } from 'kysely';

/**
 * Audio descriptors (audio/analyze/descriptors.ts) for similar sounds: a JSON array of numbers,
 * null until measured. Sounds stored before this get theirs from `sound-catalog analyze --missing`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sounds').addColumn('descriptors', 'text').execute();
}
