import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { QuotaDecision } from '../quota/quota.ts';
import type { ToolAnswer } from './tool.ts';

/** The three kinds of answer a tool call gets. Errors are results, never broken sessions. */

/** What a client is told of a failure that is not its own: the details stay in the log. */
export const INTERNAL_ERROR_MESSAGE = 'Internal error; the failure was logged. Try again later.';

/** The text first (clients that read one item read that one), then audio, a picture, then resource links. */
export function successResult(answer: ToolAnswer<Record<string, unknown>>): CallToolResult {
  return {
    content: [
      { type: 'text', text: answer.text },
      ...(answer.audio ? [answer.audio] : []),
      ...(answer.image ? [answer.image] : []),
      ...(answer.links ?? []),
    ],
    structuredContent: answer.structured,
  };
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Says when the quota comes back, both ways an agent may reckon time. */
export function quotaExceededResult(decision: QuotaDecision): CallToolResult {
  return errorResult(quotaExceededMessage(decision));
}

/** The one wording of a spent quota, for tool results and for resource reads' JSON-RPC errors alike. */
export function quotaExceededMessage(decision: QuotaDecision): string {
  const resetsAt = new Date(decision.reset * 1000).toISOString();
  return (
    `Daily quota of ${decision.limit} requests exceeded. It resets at ${resetsAt} (Unix time ${decision.reset}, ` +
    'midnight UTC); tool calls and resource reads fail until then. Do not retry before that time.'
  );
}

/**
 * The rate-limit state as of one call, for every tool result's `_meta`: an agent can pace itself
 * without a separate call (as REST answers carry X-RateLimit-*).
 */
export function withRateLimit(result: CallToolResult, decision: QuotaDecision): CallToolResult {
  return {
    ...result,
    _meta: {
      ...result._meta,
      rate_limit: { limit: decision.limit, remaining: decision.remaining, reset: decision.reset },
    },
  };
}
