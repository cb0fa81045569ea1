import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';

/** Signed-in sessions last a week from sign-in; signing in again starts a new one. */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 3600;

export interface NewSession {
  /** The secret that goes into the cookie; only its hash is stored. */
  id: string;
  expiresAt: number;
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  async create(accountId: string): Promise<NewSession> {
    const now = this.clock();
    const id = randomBytes(32).toString('base64url');
    const expiresAt = now + SESSION_LIFETIME_SECONDS * 1000;
    // Expired rows go when new ones come, so the table never grows without bound.
    await this.db.deleteFrom('dashboard_sessions').where('expires_at', '<=', new Date(now).toISOString()).execute();
    await this.db
      .insertInto('dashboard_sessions')
      .values({
        id_hash: hashSessionId(id),
        account_id: accountId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(expiresAt).toISOString(),
      })
      .execute();
    return { id, expiresAt };
  }

  /** The account a live session belongs to, or null for an unknown or expired id. */
  async accountIdOf(id: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('dashboard_sessions')
      .select('account_id')
      .where('id_hash', '=', hashSessionId(id))
      .where('expires_at', '>', new Date(this.clock()).toISOString())
      .executeTakeFirst();
    return row?.account_id ?? null;
  }

  async end(id: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sessions').where('id_hash', '=', hashSessionId(id)).execute();
  }
}
