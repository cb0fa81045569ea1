import type { Kysely } from 'kysely';

/**
 * The descriptors changed again (audio/analyze/descriptors.ts: attack band shares, each band's
 * decay after the onset, and axes learned from labelled drum kits and soundfonts, which hold on
 * recordings they were not learned on: docs/similar-sounds.md). Older vectors are not comparable
 * with the new ones, so they are cleared: `sound-catalog analyze --missing` measures them again,
 * and until then those sounds are left out of similar sounds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('sounds').set({ descriptors: null }).where('descriptors', 'is not', null).execute();
}
