import { randomUUID } from 'node:crypto';
import { forbidden, limitReached, notFound, unauthorized } from '../errors.ts';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.ts';
import type { PlanName } from './plans.ts';
import type { Account, AccountStore, ApiKeyRecord, KeyOwner } from './store.ts';

/** last_used_at is a display value; writing it once a minute per key keeps requests read-only. */
const TOUCH_INTERVAL_MS = 60_000;

export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
  account: Account;
}

/**
 * What a front door (REST, MCP) puts around a key lookup: anyone can make keys that pass the
 * checksum, so a caller sending many unknown ones is stopped before the database (quota/unknown-keys.ts).
 */
export interface KeyLookupGuard {
  /** Throws when this caller may not have a key looked up now. */
  beforeLookup(): Promise<void>;
  /** The key looked up named no active key (unknown or revoked). */
  unknownKey(): Promise<void>;
}

export class AccountService {
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly store: AccountStore,
    private readonly clock: () => number,
  ) {}

  createAccount(email: string, plan: PlanName, passwordHash?: string): Promise<Account> {
    return this.store.createAccount({ email, plan, passwordHash, now: new Date(this.clock()) });
  }

  findById(id: string): Promise<Account | null> {
    return this.store.findById(id);
  }

  /** With the password hash, for signing in; null when no account has that email. */
  findByEmail(email: string): Promise<(Account & { passwordHash: string | null }) | null> {
    return this.store.findByEmail(email);
  }

  /** Stores a stronger hash of the same password, made at a correct sign-in (see AccountStore). */
  upgradePasswordHash(accountId: string, previous: string, next: string): Promise<boolean> {
    return this.store.replacePasswordHash(accountId, previous, next);
  }

  requireByEmail(email: string): Promise<Account> {
    return this.store.requireByEmail(email);
  }

  listAccounts(): Promise<Account[]> {
    return this.store.listAccounts();
  }

  async makeOperator(accountId: string): Promise<void> {
    await this.store.update(accountId, { isOperator: true });
  }

  async setPlan(email: string, plan: PlanName): Promise<Account> {
    const account = await this.store.requireByEmail(email);
    await this.store.update(account.id, { plan });
    return (await this.store.findById(account.id))!;
  }

  /** Creates a key within the plan's limit. The full key exists only in the returned value. */
  async createKey(accountId: string, name: string): Promise<CreatedKey> {
    const account = await this.store.findById(accountId);
    if (!account) throw notFound('account not found');
    if (!account.plan.apiAccess) {
      throw forbidden(`the ${account.plan.label} plan has no API access: upgrade to Pro or Enterprise to create keys`);
    }
    const generated = generateApiKey();
    const now = new Date(this.clock());
    const id = randomUUID();
    const key = { id, accountId, name, prefix: generated.prefix, hash: generated.hash, now };
    if (!(await this.store.insertKeyWithinLimit(key, account.plan.maxKeys))) {
      throw limitReached(
        `the ${account.plan.label} plan allows ${account.plan.maxKeys} API keys; revoke one to create another`,
      );
    }
    const record = { id, accountId, name, prefix: generated.prefix, createdAt: now.toISOString(), lastUsedAt: null };
    return { key: generated.key, record, account };
  }

  listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.store.activeKeys(accountId);
  }

  async revokeKey(prefix: string, accountId?: string): Promise<void> {
    const revoked = await this.store.revokeKey(prefix, new Date(this.clock()), accountId);
    if (!revoked) throw notFound(`no active key with prefix ${prefix}`);
  }

  /**
   * Resolves the x-api-key header to its owner, or throws unauthorized/forbidden.
   * Malformed keys are refused before any lookup; a well-formed one is looked up only when the
   * `guard` lets it, and the guard hears of each that named no active key.
   */
  async authenticate(header: string | undefined, guard?: KeyLookupGuard): Promise<KeyOwner> {
    if (header === undefined || header === '') throw unauthorized('Missing API key: send it in the x-api-key header');
    if (!isWellFormedApiKey(header)) throw unauthorized('Invalid API key');
    await guard?.beforeLookup();
    // One indexed row by hash, or the owner read in the last second while the database is unchanged
    // (recent-owners.ts): a revoked key or a changed plan counts at once, whichever process changed it.
    const owner = await this.store.findKeyOwner(hashApiKey(header));
    if (!owner) {
      await guard?.unknownKey();
      throw unauthorized('Invalid API key');
    }
    if (!owner.account.plan.apiAccess) {
      throw forbidden(`The ${owner.account.plan.label} plan does not include API access; upgrade to Pro or Enterprise`);
    }
    this.touch(owner.keyId);
    return owner;
  }

  private touch(keyId: string): void {
    const now = this.clock();
    if ((this.touchedAt.get(keyId) ?? -Infinity) + TOUCH_INTERVAL_MS > now) return;
    this.touchedAt.set(keyId, now);
    this.store.touchKey(keyId, new Date(now)).catch(() => this.touchedAt.delete(keyId));
  }
}
