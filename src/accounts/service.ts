import { randomUUID } from 'node:crypto';
import { forbidden, limitReached, notFound, unauthorized } from '../errors.ts';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.ts';
import type { PlanName } from './plans.ts';
import type { Account, AccountStore, ApiKeyRecord, KeyOwner } from './store.ts';

/** How long a looked-up key is trusted before asking the database again: bounds revocation delay. */
const KEY_CACHE_MS = 1000;
/**
 * Past KEY_CACHE_MS, a key is trusted again without a read while no other process has written
 * to the database since it was read (this process clears the cache on its own changes), for at
 * most this long. Measured (300 keys in turn, search at 12,000 sounds): a read per key per
 * second cost 8% of the request rate.
 */
const KEY_TRUST_MS = 60_000;
/** last_used_at is a display value; writing it once a minute per key keeps requests read-only. */
const TOUCH_INTERVAL_MS = 60_000;

export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
  account: Account;
}

interface CachedKey {
  owner: KeyOwner | null;
  /** Until then (performance.now()), trusted as it is. */
  until: number;
  /** The database's externalChanges() version when the key was read. */
  version: number;
  trustedUntil: number;
}

export class AccountService {
  private readonly keyCache = new Map<string, CachedKey>();
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly store: AccountStore,
    private readonly clock: () => number,
    /** Changes when another process has written to the database (DatabaseHandle.externalChanges). */
    private readonly externalChanges: () => Promise<number>,
  ) {}

  createAccount(email: string, plan: PlanName, passwordHash?: string): Promise<Account> {
    return this.store.createAccount({ email, plan, passwordHash, now: new Date(this.clock()) });
  }

  async setPlan(email: string, plan: PlanName): Promise<Account> {
    const account = await this.store.requireByEmail(email);
    await this.store.update(account.id, { plan });
    this.keyCache.clear();
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
      throw limitReached(`the ${account.plan.label} plan allows ${account.plan.maxKeys} API keys; revoke one to create another`);
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
    // This process forgets at once; other processes within KEY_CACHE_MS (they see the write).
    this.keyCache.clear();
  }

  /**
   * Resolves the x-api-key header to its owner, or throws unauthorized/forbidden.
   * Malformed keys are refused before any lookup.
   */
  async authenticate(header: string | undefined): Promise<KeyOwner> {
    if (header === undefined || header === '') throw unauthorized('Missing API key: send it in the x-api-key header');
    const recent = this.recentOwner(header);
    const owner = recent !== undefined ? recent : await this.lookUp(header);
    if (!owner) throw unauthorized('Invalid API key');
    if (!owner.account.plan.apiAccess) {
      throw forbidden(`The ${owner.account.plan.label} plan does not include API access; upgrade to Pro or Enterprise`);
    }
    this.touch(owner.keyId);
    return owner;
  }

  /**
   * The owner of a key looked up within the last KEY_CACHE_MS (null for a key that matched none),
   * or undefined when it must be looked up again. Keyed by the key as sent, so a caller's
   * repeated requests skip its checksum and hash (two SHA-256 runs, a fifth of a request's time);
   * the cache holds only keys this process has received in a header in the last minute.
   */
  private recentOwner(key: string): KeyOwner | null | undefined {
    const cached = this.keyCache.get(key);
    // Real elapsed time, not the service clock: this bounds how stale the cache may be.
    return cached !== undefined && cached.until > performance.now() ? cached.owner : undefined;
  }

  private async lookUp(key: string): Promise<KeyOwner | null> {
    if (!isWellFormedApiKey(key)) return null;
    const version = await this.externalChanges();
    const now = performance.now();
    const cached = this.keyCache.get(key);
    if (cached !== undefined && cached.version === version && cached.trustedUntil > now) {
      cached.until = now + KEY_CACHE_MS;
      return cached.owner;
    }
    const owner = await this.store.findKeyOwner(hashApiKey(key));
    if (this.keyCache.size > 10_000) this.keyCache.clear();
    this.keyCache.set(key, { owner, until: now + KEY_CACHE_MS, version, trustedUntil: now + KEY_TRUST_MS });
    return owner;
  }

  private touch(keyId: string): void {
    const now = this.clock();
    if ((this.touchedAt.get(keyId) ?? -Infinity) + TOUCH_INTERVAL_MS > now) return;
    this.touchedAt.set(keyId, now);
    this.store.touchKey(keyId, new Date(now)).catch(() => this.touchedAt.delete(keyId));
  }
}
