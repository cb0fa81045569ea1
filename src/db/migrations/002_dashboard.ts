import type { Kysely } from 'kysely';

/**
 * The web dashboard's own state: signed-in sessions (only a hash of each session id) and recent
 * failed sign-ins, kept in the shared database so every instance sees the same ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_by_account').on('dashboard_sessions').column('account_id').execute();
  await db.schema.createIndex('dashboard_sessions_by_expiry').on('dashboard_sessions').column('expires_at').execute();

  await db.schema
    .createTable('dashboard_sign_in_failures')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dashboard_sign_in_failures_by_subject')
    .on('dashboard_sign_in_failures')
    .columns(['subject', 'failed_at'])
    .execute();
}
