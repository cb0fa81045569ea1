import { isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { KeyOwner } from '../accounts/store.ts';
import type { QuotaDecision } from '../quota/quota.ts';
import type { ApiServices } from '../services.ts';

/**
 * The quota spent by one POST to /mcp. Every `tools/call` in the body counts as one request of
 * the account's daily quota, exactly like one REST request, and is counted here at the HTTP
 * level before the MCP layer sees it (so a call with bad arguments counts, as a REST 400 does).
 * `initialize`, `tools/list` and notifications are free. A call refused here still reaches its
 * tool, which answers with an error result instead of breaking the session.
 */
export class ToolCallQuota {
  private readonly decisions = new Map<RequestId, QuotaDecision>();
  /** The most recent decision, for the X-RateLimit-* headers of the HTTP response. */
  latest: QuotaDecision | undefined;

  private constructor(
    private readonly services: ApiServices,
    private readonly owner: KeyOwner,
  ) {}

  static async count(body: unknown, owner: KeyOwner, services: ApiServices): Promise<ToolCallQuota> {
    const quota = new ToolCallQuota(services, owner);
    const messages = Array.isArray(body) ? body : [body];
    for (const message of messages) {
      if (isJSONRPCRequest(message) && message.method === 'tools/call') {
        quota.decisions.set(message.id, await quota.consume());
      }
    }
    return quota;
  }

  /** The decision for one call; counted now if the body did not show it (it always should). */
  async decisionFor(requestId: RequestId): Promise<QuotaDecision> {
    return this.decisions.get(requestId) ?? this.consume();
  }

  private async consume(): Promise<QuotaDecision> {
    const { account, keyId } = this.owner;
    this.latest = await this.services.quota.consume(account.id, keyId, account.plan.dailyQuota, this.services.clock());
    return this.latest;
  }
}
