import type { Kysely } from 'kysely';

/**
 * Lists are answered by the in-memory index (catalog/index/), so the indexes that kept the
 * database's rows in each sort order are no longer read. They were still written: each download
 * moved its row in two of them, and a download's UPDATE took 240-300 us on SQLite at 100,000
 * sounds with them, about 110 us without (scratch measurement, see BENCHMARKS.md).
 */
const LIST_INDEXES = ['sounds_by_num_downloads', 'sounds_by_created_at', 'sounds_by_duration', 'sounds_by_name', 'sounds_by_category'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const name of LIST_INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
