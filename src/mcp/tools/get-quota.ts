import { z } from 'zod';
import { defineTool, readOnly } from '../tool.ts';

export const getQuotaTool = defineTool({
  name: 'get_quota',
  title: 'Get my quota',
  description: 'How much of today\'s request quota this API key\'s account has left, before starting a long task: plan, daily limit, '
    + 'requests remaining, when the count resets (midnight UTC), and how many of the plan\'s keys are in use. '
    + 'Costs nothing. Every other tool result also carries the quota as of that call in its _meta.',
  inputSchema: z.strictObject({}),
  outputSchema: z.object({
    plan: z.string(),
    limit: z.int().describe('Requests per day.'),
    remaining: z.int().describe('Requests left today.'),
    reset: z.int().describe('Unix time of the next reset (midnight UTC).'),
    reset_at: z.string().describe('The same time, ISO 8601.'),
    keys_in_use: z.int().describe('Active API keys of the account.'),
    max_keys: z.int().describe('Keys the plan allows.'),
  }),
  annotations: readOnly({ title: 'Get my quota', idempotent: true }),
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
    const text = `Plan ${structured.plan}: ${structured.remaining} of ${structured.limit} requests left today; resets at `
      + `${structured.reset_at}. API keys in use: ${structured.keys_in_use} of ${structured.max_keys}.`;
    return { structured, text };
  },
});
