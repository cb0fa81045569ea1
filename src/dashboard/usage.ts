import type { Account } from '../accounts/store.ts';
import { nextUtcMidnight, utcDay } from '../quota/quota.ts';
import type { DashboardServices } from '../services.ts';
import type { DayCount } from './drawing/usage-chart.ts';

export const CHART_DAYS = 30;

export interface UsageSummary {
  /** Oldest first, today last. */
  days: DayCount[];
  today: number;
  limit: number;
  remaining: number;
  /** Unix seconds of the next midnight UTC. */
  reset: number;
  secondsToReset: number;
}

/** The UTC days (YYYY-MM-DD) of the last `count` days, oldest first, ending today. */
export function lastDays(now: number, count: number): string[] {
  const days: string[] = [];
  for (let back = count - 1; back >= 0; back--) days.push(utcDay(now - back * 86_400_000));
  return days;
}

/** Today's count and the chart come from the counters the API's quota check writes. */
export async function usageSummary(
  services: Pick<DashboardServices, 'clock' | 'usageHistory'>,
  account: Account,
): Promise<UsageSummary> {
  const now = services.clock();
  const dayNames = lastDays(now, CHART_DAYS);
  const counts = await services.usageHistory.usage(account.id, dayNames);
  const days = dayNames.map((day, i) => ({ day, count: counts[i] ?? 0 }));
  const today = days[days.length - 1]!.count;
  const reset = nextUtcMidnight(now);
  return {
    days,
    today,
    limit: account.plan.dailyQuota,
    remaining: Math.max(0, account.plan.dailyQuota - today),
    reset,
    secondsToReset: Math.max(0, reset - Math.floor(now / 1000)),
  };
}

/** Requests per key over the chart's days, for the key list. */
export async function keyTotals(
  services: Pick<DashboardServices, 'clock' | 'usageHistory'>,
  keyIds: string[],
): Promise<Map<string, { today: number; total: number }>> {
  const dayNames = lastDays(services.clock(), CHART_DAYS);
  const totals = new Map<string, { today: number; total: number }>();
  await Promise.all(
    keyIds.map(async (id) => {
      const counts = await services.usageHistory.keyUsage(id, dayNames);
      totals.set(id, { today: counts[counts.length - 1] ?? 0, total: counts.reduce((sum, n) => sum + n, 0) });
    }),
  );
  return totals;
}
