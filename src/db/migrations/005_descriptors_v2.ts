import type { Kysely } from 'kysely';

/**
 * The descriptors changed (audio/analyze/descriptors.ts: attack, band and envelope numbers, which
 * let one-shots of a kind find each other among real recordings). Vectors of the first kind are
 * not comparable with the new ones, so they are cleared: `sound-catalog analyze --missing`
 * measures them again, and until then those sounds are left out of similar sounds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('sounds').set({ descriptors: null }).where('descriptors', 'is not', null).execute();
}
