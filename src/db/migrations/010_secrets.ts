import type { Kysely } from 'kysely';

/**
 * Secrets the service generates for itself (secrets.ts: the media URL signing secret unless
 * SIGNING_SECRET is set, the dashboard's CSRF key), one row each, in the database every instance
 * shares: instances need no shared folder to agree on them. The name is the key, so two instances
 * starting at once insert one value between them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
