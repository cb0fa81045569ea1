import type { Kysely } from 'kysely';

/**
 * The descriptors changed again (audio/analyze/descriptors.ts: the envelope in blocks of about
 * 3 ms, the tail's timbre and the attack's lowest strong partial; and axes learned from every
 * labelled source with crash, ride and rim as families of their own: docs/similar-sounds.md).
 * Older vectors are not comparable with the new ones, so they are cleared: `sound-catalog
 * analyze --missing` measures them again, and until then those sounds are left out of similar
 * sounds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('sounds').set({ descriptors: null }).where('descriptors', 'is not', null).execute();
}
