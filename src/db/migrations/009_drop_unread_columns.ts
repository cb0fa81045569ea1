import type { Kysely } from 'kysely';

/**
 * `sounds.search_text` and the `sound_tags` table were kept for searches in the database; the
 * in-memory index (catalog/index/) answers those from the rows' own name, description and tags
 * (migration 003 already dropped the text index over search_text). Nothing reads them, and every
 * ingest paid for writing them: they go.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sound_tags_by_sound').ifExists().execute();
  await db.schema.dropTable('sound_tags').ifExists().execute();
  await db.schema.alterTable('sounds').dropColumn('search_text').execute();
}
