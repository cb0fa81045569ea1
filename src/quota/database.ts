import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { nextUtcMidnight, utcDay, type QuotaDecision, type QuotaStore } from './quota.ts';

/**
 * Counters in the catalog database (SQLite or PostgreSQL). One upsert both checks and counts,
 * so it is exact however many requests race, even across instances sharing the database.
 */
export class SqlQuotaStore implements QuotaStore {
  /** Per-key counts are for display, not enforcement: they are written once a second, in one go. */
  private pendingKeyCounts = new Map<string, { keyId: string; day: string; count: number }>();
  private readonly flushTimer: NodeJS.Timeout;

  constructor(private readonly db: Db) {
    this.flushTimer = setInterval(() => void this.flushKeyCounts().catch(() => {}), 1000);
    this.flushTimer.unref();
  }

  async consume(accountId: string, keyId: string, limit: number, now: number): Promise<QuotaDecision> {
    const day = utcDay(now);
    const reset = nextUtcMidnight(now);
    // Plain SQL rather than the query builder: this runs on every API request, and building the
    // upsert each time cost twice what running it does (measured: 59 µs against 28 µs).
    const { rows } = await sql<{ count: number | string }>`
      INSERT INTO usage_daily (account_id, day, count) VALUES (${accountId}, ${day}, 1)
      ON CONFLICT (account_id, day) DO UPDATE SET count = usage_daily.count + 1 WHERE usage_daily.count < ${limit}
      RETURNING count`.execute(this.db);
    const counted = rows[0];
    if (!counted) return { allowed: false, limit, remaining: 0, reset };
    const pending = this.pendingKeyCounts.get(`${keyId} ${day}`);
    if (pending) pending.count++;
    else this.pendingKeyCounts.set(`${keyId} ${day}`, { keyId, day, count: 1 });
    return { allowed: true, limit, remaining: Math.max(0, limit - Number(counted.count)), reset };
  }

  async usage(accountId: string, days: string[]): Promise<number[]> {
    const rows = await this.db.selectFrom('usage_daily').select(['day', 'count'])
      .where('account_id', '=', accountId).where('day', 'in', days).execute();
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return days.map((day) => byDay.get(day) ?? 0);
  }

  async keyUsage(keyId: string, days: string[]): Promise<number[]> {
    await this.flushKeyCounts();
    const rows = await this.db.selectFrom('key_usage_daily').select(['day', 'count'])
      .where('key_id', '=', keyId).where('day', 'in', days).execute();
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return days.map((day) => byDay.get(day) ?? 0);
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flushKeyCounts();
  }

  private async flushKeyCounts(): Promise<void> {
    if (this.pendingKeyCounts.size === 0) return;
    const batch = [...this.pendingKeyCounts.values()];
    this.pendingKeyCounts = new Map();
    await this.db.transaction().execute(async (trx) => {
      for (const { keyId, day, count } of batch) {
        await trx.insertInto('key_usage_daily').values({ key_id: keyId, day, count })
          .onConflict((oc) => oc.columns(['key_id', 'day']).doUpdateSet({ count: (eb) => eb('key_usage_daily.count', '+', count) }))
          .execute();
      }
    });
  }
}
