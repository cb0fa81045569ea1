import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { reusableQuery } from '../db/reusable-query.ts';
import { conflict, notFound } from '../errors.ts';
import { planOf, type Plan, type PlanName } from './plans.ts';
import { RecentOwners } from './recent-owners.ts';
import { storable } from '../db/text.ts';

export interface Account {
  id: string;
  email: string;
  plan: Plan;
  isOperator: boolean;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The key a request presented, with the account it belongs to: what auth needs, in one query. */
export interface KeyOwner {
  keyId: string;
  prefix: string;
  account: Account;
}

export class AccountStore {
  /** The key lookup of every API request, compiled once (db/reusable-query.ts). */
  private readonly keyOwnerByHash;
  /** Owners read in the last second, where the database tells another process's commits (SQLite). */
  private readonly recentOwners: RecentOwners<KeyOwner> | null;

  /** `dataVersion`: the database's (db/dialects/types.ts), where it has one. */
  constructor(
    private readonly db: Db,
    dataVersion?: () => number,
  ) {
    this.recentOwners = dataVersion ? new RecentOwners(dataVersion) : null;
    this.keyOwnerByHash = reusableQuery(
      db,
      db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .select([
          'api_keys.id as key_id',
          'api_keys.prefix',
          'accounts.id',
          'accounts.email',
          'accounts.plan',
          'accounts.is_operator',
          'accounts.created_at',
        ])
        .where('api_keys.hash', '=', '')
        .where('api_keys.revoked_at', 'is', null),
    );
  }

  async createAccount(input: { email: string; plan: PlanName; passwordHash?: string; now: Date }): Promise<Account> {
    const email = normalizeEmail(input.email);
    const account = {
      id: randomUUID(),
      email,
      plan: input.plan,
      password_hash: input.passwordHash ?? null,
      created_at: input.now.toISOString(),
    };
    const inserted = await this.db
      .insertInto('accounts')
      .values(account)
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
      throw conflict(`an account with email ${email} already exists`);
    return { id: account.id, email, plan: planOf(input.plan), isOperator: false, createdAt: account.created_at };
  }

  async findByEmail(email: string): Promise<(Account & { passwordHash: string | null }) | null> {
    if (!storable(email)) return null;
    const row = await this.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
    return row ? { ...toAccount(row), passwordHash: row.password_hash } : null;
  }

  async findById(id: string): Promise<Account | null> {
    if (!storable(id)) return null;
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async requireByEmail(email: string): Promise<Account> {
    const account = await this.findByEmail(email);
    if (!account) throw notFound(`no account with email ${normalizeEmail(email)}`);
    return account;
  }

  async update(id: string, changes: { plan?: PlanName; isOperator?: boolean; passwordHash?: string }): Promise<void> {
    await this.db
      .updateTable('accounts')
      .set({
        ...(changes.plan !== undefined && { plan: changes.plan }),
        ...(changes.isOperator !== undefined && { is_operator: changes.isOperator ? 1 : 0 }),
        ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
      })
      .where('id', '=', id)
      .execute();
    this.recentOwners?.forget();
  }

  /**
   * Writes a new password hash only while the stored one is still `previous`: an upgrade at sign-in
   * never overwrites a password changed meanwhile. Returns whether it was written.
   */
  async replacePasswordHash(id: string, previous: string, next: string): Promise<boolean> {
    const result = await this.db
      .updateTable('accounts')
      .set({ password_hash: next })
      .where('id', '=', id)
      .where('password_hash', '=', previous)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async listAccounts(): Promise<Account[]> {
    const rows = await this.db.selectFrom('accounts').selectAll().orderBy('created_at').execute();
    return rows.map(toAccount);
  }

  /**
   * Inserts a key only while the account has fewer than `maxKeys` active keys; two concurrent
   * requests cannot both pass the check. Returns whether it was inserted.
   */
  async insertKeyWithinLimit(
    key: { id: string; accountId: string; name: string; prefix: string; hash: string; now: Date },
    maxKeys: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // A write to the account row first: it locks that row (all of SQLite), so a second insert
      // for the same account waits here and then counts this one's key (PostgreSQL reads each
      // statement afresh).
      await trx.updateTable('accounts').set({ id: key.accountId }).where('id', '=', key.accountId).execute();
      const result = await sql`
        INSERT INTO api_keys (id, account_id, name, prefix, hash, created_at)
        SELECT ${key.id}, ${key.accountId}, ${key.name}, ${key.prefix}, ${key.hash}, ${key.now.toISOString()}
        WHERE (SELECT count(*) FROM api_keys WHERE account_id = ${key.accountId} AND revoked_at IS NULL) < ${maxKeys}
      `.execute(trx);
      return Number(result.numAffectedRows ?? 0) > 0;
    });
  }

  async activeKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      prefix: row.prefix,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
    }));
  }

  /** Looks a key up by its hash (a unique index, never a scan over keys), or finds it among the recent owners. */
  findKeyOwner(hash: string): Promise<KeyOwner | null> {
    return this.recentOwners ? this.recentOwners.owner(hash, () => this.readKeyOwner(hash)) : this.readKeyOwner(hash);
  }

  private async readKeyOwner(hash: string): Promise<KeyOwner | null> {
    const [row] = await this.keyOwnerByHash(hash);
    return row ? { keyId: row.key_id, prefix: row.prefix, account: toAccount(row) } : null;
  }

  /** Revokes by display prefix, optionally only within one account; returns whether a key was revoked. */
  async revokeKey(prefix: string, now: Date, accountId?: string): Promise<boolean> {
    let query = this.db
      .updateTable('api_keys')
      .set({ revoked_at: now.toISOString() })
      .where('prefix', '=', prefix)
      .where('revoked_at', 'is', null);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const result = await query.executeTakeFirst();
    this.recentOwners?.forget();
    return result.numUpdatedRows > 0n;
  }

  async touchKey(keyId: string, now: Date): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', keyId).execute();
  }
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toAccount(row: { id: string; email: string; plan: string; is_operator: number; created_at: string }): Account {
  return {
    id: row.id,
    email: row.email,
    plan: planOf(row.plan),
    isOperator: row.is_operator === 1,
    createdAt: row.created_at,
  };
}
