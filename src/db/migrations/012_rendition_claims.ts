import type { Kysely } from 'kysely';

/**
 * A rendition being made has a row of its own before its file exists: a claim (media/
 * rendition-store.ts), so that of several instances asked for the same new rendition at once one
 * makes it and the others wait for its record. `claimed_by` names the job holding it and
 * `claim_expires_at` (ISO-8601 UTC, like the other times) when another instance may take it over,
 * should its maker have died; both are null on a stored rendition, which every row before this
 * migration is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('renditions').addColumn('claimed_by', 'text').execute();
  await db.schema.alterTable('renditions').addColumn('claim_expires_at', 'text').execute();
}
