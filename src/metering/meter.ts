import type { KeyOwner } from '../accounts/store.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { QuotaCounter, QuotaDecision } from '../quota/quota.ts';

/**
 * Who pays for a piece of work: the account, the key that spent (null: the dashboard, a signed
 * URL), the plan's day.
 */
export interface Payer {
  accountId: string;
  keyId: string | null;
  dailyQuota: number;
}

/** The payer behind an API key. */
export function payerOf(owner: KeyOwner): Payer {
  return { accountId: owner.account.id, keyId: owner.keyId, dailyQuota: owner.account.plan.dailyQuota };
}

/**
 * The one meter every entry point charges through: REST requests (api/auth.ts), MCP messages
 * (mcp/request-quota.ts), dashboard actions, packs and renditions. It spends the account's
 * daily quota (quota/: exact under any concurrency, committed before the answer) and records what
 * was served (a download is committed to its sound's count before it is answered:
 * catalog/download-counts.ts). A new entry point charges here and cannot forget either.
 */
export class Meter {
  constructor(
    private readonly quota: QuotaCounter,
    private readonly catalog: Pick<CatalogService, 'countDownload'>,
    private readonly clock: () => number,
  ) {}

  /** Spends `cost` requests of the payer's day (the day of `at`); refused (nothing spent) when fewer are left. */
  charge(payer: Payer, cost = 1, at = this.clock()): Promise<QuotaDecision> {
    return this.quota.consume(payer.accountId, payer.keyId, payer.dailyQuota, at, cost);
  }

  /** The payer's day as it stands, spending nothing. */
  state(payer: Payer): Promise<QuotaDecision> {
    return this.charge(payer, 0);
  }

  /**
   * Gives back `cost` requests charged at `chargedAt` for work that then was not done (a rendition
   * that failed or ran out of time), to the day they were taken from.
   */
  async refund(payer: Payer, cost: number, chargedAt: number): Promise<void> {
    if (cost > 0) await this.quota.refund(payer.accountId, payer.keyId, chargedAt, cost);
  }

  /**
   * Records one download of a sound as served: its count grows by one, committed before this
   * resolves. Returns the sound's id and name, or null when no sound has the id (nothing counted).
   */
  countDownload(id: string): Promise<{ id: string; name: string } | null> {
    return this.catalog.countDownload(id);
  }
}
