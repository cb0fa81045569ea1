import { nextUtcMidnight, utcDay, type QuotaCounter, type QuotaDecision } from './quota.ts';
import type { UsageHistory } from './usage-history.ts';

/**
 * Daily counters for a single instance (SQLite, or PostgreSQL without Redis). The count lives in
 * this process, starting from what the usage history holds for the day: checking and counting is
 * one synchronous step, so it is exact under any number of concurrent requests. A request allowed
 * is committed to the history before `consume` resolves, together with the others of the same
 * event-loop turn, so a crash never forgets a request that was answered. Several instances need a
 * shared counter: REDIS_URL.
 *
 * One upsert per request cost a large share of the request rate, mostly in WAL writes and
 * checkpoints; one transaction per event-loop turn costs far less.
 */
export class InProcessQuotaCounter implements QuotaCounter {
  /**
   * Counts by day, then by account: two lookups by strings at hand (today's day is kept, the
   * account id comes with the key's owner), where one joined name would be a new string to hash
   * on every request. A first request of the day reads the written count; concurrent first
   * requests share that one read.
   */
  private readonly counts = new Map<string, Map<string, { count: number } | Promise<{ count: number }>>>();
  private today = { day: '', endsAt: 0 };

  constructor(private readonly history: UsageHistory) {}

  async consume(accountId: string, keyId: string | null, limit: number, now: number, cost = 1): Promise<QuotaDecision> {
    const day = this.dayOf(now);
    const reset = this.today.endsAt / 1000;
    const known = this.counts.get(day)?.get(accountId);
    const entry = known === undefined || known instanceof Promise ? await (known ?? this.load(accountId, day)) : known;
    // No await between the check and the count: this is what makes the quota exact.
    if (entry.count + cost > limit)
      return { allowed: false, limit, remaining: Math.max(0, limit - entry.count), reset };
    entry.count += cost;
    // What is left as of this request: read before the commit, while other requests of the turn count too.
    const remaining = limit - entry.count;
    this.history.add(accountId, keyId, day, cost);
    await this.history.committed();
    return { allowed: true, limit, remaining, reset };
  }

  async refund(accountId: string, keyId: string | null, chargedAt: number, cost: number): Promise<void> {
    const day = utcDay(chargedAt);
    // A day not loaded (past, or let go) starts from the history, where the refund is written.
    const known = this.counts.get(day)?.get(accountId);
    const entry = known instanceof Promise ? await known.catch(() => undefined) : known;
    if (entry) entry.count -= cost;
    this.history.add(accountId, keyId, day, -cost);
    await this.history.committed();
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {}

  private load(accountId: string, day: string): Promise<{ count: number }> {
    const ofDay = this.counts.get(day) ?? this.counts.set(day, new Map()).get(day)!;
    const loading = this.history.written(accountId, day).then(
      (count) => {
        const entry = { count };
        ofDay.set(accountId, entry);
        return entry;
      },
      (error: unknown) => {
        ofDay.delete(accountId);
        throw error;
      },
    );
    ofDay.set(accountId, loading);
    return loading;
  }

  /** The UTC day of `now`, worked out once per day rather than once per request; past days are let go. */
  private dayOf(now: number): string {
    if (now >= this.today.endsAt || now < this.today.endsAt - 86_400_000) {
      this.today = { day: utcDay(now), endsAt: nextUtcMidnight(now) * 1000 };
      for (const day of this.counts.keys()) if (day !== this.today.day) this.counts.delete(day);
    }
    return this.today.day;
  }
}
