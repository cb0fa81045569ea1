import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { nextUtcMidnight, utcDay, type QuotaDecision, type QuotaStore } from './quota.ts';

/** How often counts made in this process are written to the database. */
const FLUSH_INTERVAL_MS = 1000;

/** One account's count for one UTC day, as this process knows it. */
interface DayCount {
  accountId: string;
  day: string;
  /** The database's count when first read, plus every request this process has counted since. */
  count: number;
  /** Requests counted here and not yet written. */
  unsaved: number;
}

/**
 * Daily counters for a single instance on the catalog database (SQLite, or PostgreSQL without
 * Redis). The count lives in this process: checking and counting is one synchronous step, so it
 * is exact under any number of concurrent requests, and costs no database write per request.
 * Counts reach the database every second and on close, as additions, so nothing another process
 * wrote is overwritten. A process killed outright loses at most its last second of counts, in the
 * caller's favour. Several instances need a shared counter: REDIS_URL (operator contract).
 *
 * Measured (bench/, search at 12,000 sounds): one upsert per request cost a quarter of the
 * request rate, mostly in WAL writes and checkpoints.
 */
export class DatabaseQuotaStore implements QuotaStore {
  /**
   * Counts by day, then by account: two lookups by strings at hand (today's day is kept, the
   * account id comes with the key's owner), where one joined name would be a new string to hash
   * on every request.
   */
  private readonly counts = new Map<string, Map<string, DayCount | Promise<DayCount>>>();
  /** Per-key counts since the last flush, by day then key: for display, not enforcement. */
  private keyCounts = new Map<string, Map<string, number>>();
  /** Flushes run one after another, so waiting for the latest waits for all before it. */
  private flushing: Promise<void> = Promise.resolve();
  private readonly flushTimer: NodeJS.Timeout;
  private today = { day: '', endsAt: 0 };

  constructor(private readonly db: Db) {
    this.flushTimer = setInterval(() => void this.flush().catch(() => {}), FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
  }

  async consume(accountId: string, keyId: string, limit: number, now: number): Promise<QuotaDecision> {
    const day = this.dayOf(now);
    const reset = this.today.endsAt / 1000;
    const known = this.counts.get(day)?.get(accountId);
    const entry = known === undefined || known instanceof Promise ? await (known ?? this.load(accountId, day)) : known;
    // No await between the check and the count: this is what makes the quota exact.
    if (entry.count >= limit) return { allowed: false, limit, remaining: 0, reset };
    entry.count++;
    entry.unsaved++;
    this.countKey(keyId, day, 1);
    return { allowed: true, limit, remaining: limit - entry.count, reset };
  }

  async usage(accountId: string, days: string[]): Promise<number[]> {
    await this.flush();
    const rows = await this.db.selectFrom('usage_daily').select(['day', 'count'])
      .where('account_id', '=', accountId).where('day', 'in', days).execute();
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return days.map((day) => byDay.get(day) ?? 0);
  }

  async keyUsage(keyId: string, days: string[]): Promise<number[]> {
    await this.flush();
    const rows = await this.db.selectFrom('key_usage_daily').select(['day', 'count'])
      .where('key_id', '=', keyId).where('day', 'in', days).execute();
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return days.map((day) => byDay.get(day) ?? 0);
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flush();
  }

  /** Writes what was counted since the last flush; on failure the counts wait for the next one. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => {}).then(() => this.write());
    return this.flushing;
  }

  /** Reads the day's count once; concurrent first requests share the one read. */
  private load(accountId: string, day: string): Promise<DayCount> {
    const ofDay = this.counts.get(day) ?? this.counts.set(day, new Map()).get(day)!;
    const loading = this.db.selectFrom('usage_daily').select('count')
      .where('account_id', '=', accountId).where('day', '=', day).executeTakeFirst()
      .then((row) => {
        const entry = { accountId, day, count: Number(row?.count ?? 0), unsaved: 0 };
        ofDay.set(accountId, entry);
        return entry;
      }, (error: unknown) => {
        ofDay.delete(accountId);
        throw error;
      });
    ofDay.set(accountId, loading);
    return loading;
  }

  private async write(): Promise<void> {
    const accounts: Array<{ entry: DayCount; unsaved: number }> = [];
    for (const [day, ofDay] of this.counts) {
      let settled = true;
      for (const entry of ofDay.values()) {
        if (entry instanceof Promise) settled = false;
        else if (entry.unsaved > 0) {
          accounts.push({ entry, unsaved: entry.unsaved });
          settled = false;
        }
      }
      // Days that are over and fully written need not stay in memory.
      if (settled && day !== this.today.day) this.counts.delete(day);
    }
    const keys = [...this.keyCounts].flatMap(([day, ofDay]) => [...ofDay].map(([keyId, count]) => ({ keyId, day, count })));
    if (accounts.length === 0 && keys.length === 0) return;
    for (const { entry, unsaved } of accounts) entry.unsaved -= unsaved;
    this.keyCounts = new Map();
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const { entry: { accountId, day }, unsaved } of accounts) {
          await sql`INSERT INTO usage_daily (account_id, day, count) VALUES (${accountId}, ${day}, ${unsaved})
            ON CONFLICT (account_id, day) DO UPDATE SET count = usage_daily.count + excluded.count`.execute(trx);
        }
        for (const { keyId, day, count } of keys) {
          await sql`INSERT INTO key_usage_daily (key_id, day, count) VALUES (${keyId}, ${day}, ${count})
            ON CONFLICT (key_id, day) DO UPDATE SET count = key_usage_daily.count + excluded.count`.execute(trx);
        }
      });
    } catch (error) {
      // Nothing was written: put the counts back for the next flush.
      for (const { entry, unsaved } of accounts) entry.unsaved += unsaved;
      for (const { keyId, day, count } of keys) this.countKey(keyId, day, count);
      throw error;
    }
  }

  private countKey(keyId: string, day: string, count: number): void {
    const ofDay = this.keyCounts.get(day) ?? this.keyCounts.set(day, new Map()).get(day)!;
    ofDay.set(keyId, (ofDay.get(keyId) ?? 0) + count);
  }

  /** The UTC day of `now`, worked out once per day rather than once per request. */
  private dayOf(now: number): string {
    if (now >= this.today.endsAt || now < this.today.endsAt - 86_400_000) {
      this.today = { day: utcDay(now), endsAt: nextUtcMidnight(now) * 1000 };
    }
    return this.today.day;
  }
}
