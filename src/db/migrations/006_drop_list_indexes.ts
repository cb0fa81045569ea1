import type { Kysely } from 'kysely';

/**
 * Lists are answered by the in-memory index (catalog/index/), so the indexes that kept the
 * database's rows in each sort order are no longer read. They were still written: each download
 * moved its row in two of them, which made a download's UPDATE more than twice as slow.
 */
const LIST_INDEXES = [
  'sounds_by_num_downloads',
  'sounds_by_created_at',
  'sounds_by_duration',
  'sounds_by_name',
  'sounds_by_category',
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const name of LIST_INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
