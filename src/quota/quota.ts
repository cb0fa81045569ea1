/** The outcome of spending one request of an account's daily quota. */
export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  /** Requests left today after this one; when refused, what is left (fewer than the cost). */
  remaining: number;
  /** Unix seconds of the next midnight UTC, when the count starts again. */
  reset: number;
}

/**
 * The daily quota's counter, one file per backend (database.ts: in this process; redis.ts: shared
 * by every instance). `consume` must be atomic: under any concurrency exactly `limit` requests a
 * day are allowed, and refused ones are not counted. What it allows it also adds to the usage
 * history (usage-history.ts), which the dashboard reads.
 */
export interface QuotaCounter {
  /**
   * Spends `cost` requests of the account's day (1 for an API request or tool call, more for work
   * that costs more: a new rendition). `keyId` names the API key that spent them, null when no key
   * did (the dashboard, a signed media URL). Refused when fewer than `cost` are left.
   */
  consume(accountId: string, keyId: string | null, limit: number, now: number, cost?: number): Promise<QuotaDecision>;
  /**
   * Gives back `cost` requests that `consume` allowed at `chargedAt` (their day gets them back,
   * also when it is over) because the work they paid for failed: a rendition that could not be
   * made. Never more than was consumed; the usage history shows the net count.
   */
  refund(accountId: string, keyId: string | null, chargedAt: number, cost: number): Promise<void>;
  /** Resolves when the counter answers; rejects when its backend does not. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

export function nextUtcMidnight(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) / 1000;
}

/** The headers that tell a client where its quota stands, on every charged answer (REST and media). */
export function rateLimitHeaders(decision: QuotaDecision): Record<string, number> {
  return {
    'x-ratelimit-limit': decision.limit,
    'x-ratelimit-remaining': decision.remaining,
    'x-ratelimit-reset': decision.reset,
  };
}
