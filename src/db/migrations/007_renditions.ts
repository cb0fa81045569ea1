import type { Kysely } from 'kysely';

/**
 * The record of stored renditions (media/rendition-store.ts): what each file measures and when it
 * was last served, in the shared database, so that every instance sees the same total size and
 * the same least-recently-served order when it removes some to stay under RENDITIONS_MAX_BYTES.
 * Renditions made before it (with their facts in a JSON file beside the MP3, under an older name)
 * are not in it; they are made again under their new name on their next request.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('renditions')
    .addColumn('file_key', 'text', (c) => c.primaryKey())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('duration', 'real', (c) => c.notNull())
    .addColumn('integrated_lufs', 'real')
    .addColumn('true_peak_db', 'real')
    .addColumn('made_at', 'text', (c) => c.notNull())
    .addColumn('last_served_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('renditions_by_last_served')
    .on('renditions')
    .columns(['last_served_at', 'file_key'])
    .execute();
}
