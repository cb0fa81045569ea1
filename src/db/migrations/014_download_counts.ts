import { sql, type Kysely } from 'kysely';

/**
 * Download counts leave `sounds` for a table of their own, `sound_downloads`: a count is no
 * change of the catalog, and every count written to `sounds` logged an `updated` change that
 * mirrors (GET /api/v1/changes) had to read. Each row holds a sound's all-time count and the
 * `version` of the commit that last changed it, by which other instances read the counts that
 * changed (catalog/download-counts.ts). Counts moved here keep version 0.
 *
 * Frozen: written out in full for each engine, never calling code that may change later.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sound_downloads')
    .addColumn('sound_seq', 'integer', (c) => c.primaryKey().references('sounds.seq').onDelete('cascade'))
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sound_downloads_by_version')
    .on('sound_downloads')
    .columns(['version', 'sound_seq'])
    .execute();
  // Dropping the column below is a schema change, not an update of rows: the change log's
  // triggers do not fire, and mirrors see nothing.
  await sql`INSERT INTO sound_downloads (sound_seq, count, version)
    SELECT seq, num_downloads, 0 FROM sounds WHERE num_downloads > 0`.execute(db);
  await db.schema.alterTable('sounds').dropColumn('num_downloads').execute();
}
