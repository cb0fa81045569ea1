/** The outcome of spending one request of an account's daily quota. */
export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  /** Requests left today after this one (0 when refused). */
  remaining: number;
  /** Unix seconds of the next midnight UTC, when the count starts again. */
  reset: number;
}

/**
 * Daily request counters, one file per backend (database.ts; Redis with scale-out). `consume` must be atomic:
 * under any concurrency exactly `limit` requests a day are allowed, and refused ones are not counted.
 */
export interface QuotaStore {
  consume(accountId: string, keyId: string, limit: number, now: number): Promise<QuotaDecision>;
  /** Requests counted for an account on each of the given UTC days (YYYY-MM-DD), 0 where none. */
  usage(accountId: string, days: string[]): Promise<number[]>;
  /** The same per key. */
  keyUsage(keyId: string, days: string[]): Promise<number[]>;
  close(): Promise<void>;
}

export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

export function nextUtcMidnight(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) / 1000;
}
