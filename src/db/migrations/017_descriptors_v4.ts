import type { Kysely } from 'kysely';

/**
 * The descriptors changed (audio/analyze/descriptors.ts): a group of how periodic a sound is
 * after its peak, and the learned axes as a direction, learned again on the new measures
 * (docs/similar-sounds.md). Older vectors are not comparable with the new ones, so they are
 * cleared: `sound-catalog analyze --missing` measures them again, and until then those sounds
 * are left out of similar sounds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('sounds').set({ descriptors: null }).where('descriptors', 'is not', null).execute();
}
