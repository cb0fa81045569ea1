import type { Kysely } from 'kysely';
import type { SqlDialect } from '../dialects/types.ts';

/**
 * The change log becomes readable by mirrors (GET /api/v1/changes): each row also says which
 * sound (its id: a removed sound's row is gone), what happened and when. Rows written before this
 * migration know none of that and are left without it: a mirror asking from before the first
 * described row is told to walk the catalog again (410), never given a partial answer.
 */
export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('catalog_changes').addColumn('sound_id', 'text').execute();
  await db.schema.alterTable('catalog_changes').addColumn('kind', 'text').execute();
  await db.schema.alterTable('catalog_changes').addColumn('changed_at', 'text').execute();
  await dialect.describeChangeLog(db);
}
