import { z } from 'zod';
import { RENDITION_PRICE } from '../../media/rendition-work.ts';
import { defineTool, readOnly } from '../tool.ts';

export const getQuotaTool = defineTool({
  name: 'get_quota',
  title: 'Get my quota',
  description:
    "Requests left today (resets midnight UTC), plan and keys in use; free, and every result's _meta " +
    `has the quota too. A new rendition (loudness, trim, format) costs ${RENDITION_PRICE} requests per started 10 ` +
    `minutes, more at high rates.`,
  inputSchema: z.strictObject({}),
  annotations: readOnly({ idempotent: true }),
  async run(_args, { services, owner, decision }) {
    const { account } = owner;
    // This call's own decision, counted at cost 0 by request-quota.ts: it states the quota and spends none.
    const keys = await services.accounts.listKeys(account.id);
    const structured = {
      plan: account.plan.name,
      limit: decision.limit,
      remaining: decision.remaining,
      reset: decision.reset,
      reset_at: new Date(decision.reset * 1000).toISOString(),
      keys_in_use: keys.length,
      max_keys: account.plan.maxKeys,
    };
    const text =
      `Plan ${structured.plan}: ${structured.remaining} of ${structured.limit} requests left today; resets at ` +
      `${structured.reset_at}. API keys in use: ${structured.keys_in_use} of ${structured.max_keys}.`;
    return { structured, text };
  },
});
