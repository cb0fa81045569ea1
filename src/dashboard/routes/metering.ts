import type { FastifyReply } from 'fastify';
import type { Account } from '../../accounts/store.ts';
import { rateLimitHeaders } from '../../quota/quota.ts';
import type { Dashboard } from '../context.ts';
import { formatCount, formatWait } from '../pages/format.ts';
import { PageError } from './page-errors.ts';

/**
 * Spends one request of the account's daily quota, as the same work through the API would (no
 * API key spent it), and adds the quota headers the API sends. Past the quota: a 429 page with
 * Retry-After, and nothing counted.
 */
export async function spendQuota(
  dashboard: Pick<Dashboard, 'meter' | 'clock'>,
  account: Account,
  reply: FastifyReply,
): Promise<void> {
  const now = dashboard.clock();
  const decision = await dashboard.meter.charge({
    accountId: account.id,
    keyId: null,
    dailyQuota: account.plan.dailyQuota,
  });
  const headers = rateLimitHeaders(decision);
  if (decision.allowed) {
    reply.headers(headers);
    return;
  }
  const retryAfter = Math.max(1, decision.reset - Math.floor(now / 1000));
  throw new PageError(
    429,
    "Today's quota is used up",
    `Your ${account.plan.label} plan allows ${formatCount(decision.limit)} requests a day, and today's are used: ` +
      `searches, downloads and "More like this" here count like API requests. The count starts again at midnight ` +
      `UTC, in ${formatWait(retryAfter)}.`,
    { ...headers, 'retry-after': retryAfter },
  );
}
