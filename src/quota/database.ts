import type { Db } from '../db/index.ts';
import { nextUtcMidnight, utcDay, type QuotaDecision, type QuotaStore } from './quota.ts';

/**
 * Counters in the catalog database (SQLite or PostgreSQL). One upsert both checks and counts,
 * so it is exact however many requests race, even across instances sharing the database.
 */
export class SqlQuotaStore implements QuotaStore {
  constructor(private readonly db: Db) {}

  async consume(accountId: string, keyId: string, limit: number, now: number): Promise<QuotaDecision> {
    const day = utcDay(now);
    const reset = nextUtcMidnight(now);
    const counted = await this.db.insertInto('usage_daily').values({ account_id: accountId, day, count: 1 })
      .onConflict((oc) => oc.columns(['account_id', 'day'])
        .doUpdateSet({ count: (eb) => eb('usage_daily.count', '+', 1) })
        .where('usage_daily.count', '<', limit))
      .returning('count').executeTakeFirst();
    if (!counted) return { allowed: false, limit, remaining: 0, reset };
    await this.db.insertInto('key_usage_daily').values({ key_id: keyId, day, count: 1 })
      .onConflict((oc) => oc.columns(['key_id', 'day']).doUpdateSet({ count: (eb) => eb('key_usage_daily.count', '+', 1) }))
      .execute();
    return { allowed: true, limit, remaining: Math.max(0, limit - Number(counted.count)), reset };
  }

  async usage(accountId: string, days: string[]): Promise<number[]> {
    const rows = await this.db.selectFrom('usage_daily').select(['day', 'count'])
      .where('account_id', '=', accountId).where('day', 'in', days).execute();
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return days.map((day) => byDay.get(day) ?? 0);
  }

  async keyUsage(keyId: string, days: string[]): Promise<number[]> {
    const rows = await this.db.selectFrom('key_usage_daily').select(['day', 'count'])
      .where('key_id', '=', keyId).where('day', 'in', days).execute();
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return days.map((day) => byDay.get(day) ?? 0);
  }

  async close(): Promise<void> {}
}
