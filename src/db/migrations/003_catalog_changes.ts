import type { Kysely } from 'kysely';
import type { SqlDialect } from '../dialects/types.ts';

/**
 * Searches are answered by the in-memory index (catalog/index/), which follows a numbered log of
 * changed sounds (catalog/database-change-feed.ts): the database's own text index is no longer
 * read, so it goes, and every write stops paying for it.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await dialect.dropTextIndex(db);
  await db.schema
    .createTable('catalog_changes')
    .addColumn('seq', dialect.bigAutoIncrementType, (c) => dialect.autoIncrementKey(c))
    .addColumn('sound_seq', 'integer', (c) => c.notNull())
    .execute();
  await dialect.createChangeLog(db);
}
