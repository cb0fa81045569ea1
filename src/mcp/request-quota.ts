import { isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { KeyOwner } from '../accounts/store.ts';
import type { QuotaDecision } from '../quota/quota.ts';
import type { ApiServices } from '../services.ts';

/**
 * The MCP methods that read the catalog, each one request of the daily quota like one REST
 * request. Listing and describing (initialize, tools/list, resources/list,
 * resources/templates/list, prompts/list, prompts/get) and notifications are free.
 */
const COUNTED_METHODS = new Set(['tools/call', 'resources/read']);
/** Tools that cost nothing: their call is counted at cost 0, which states the quota without spending it. */
const FREE_TOOLS = new Set(['get_quota']);

/**
 * The quota spent by one POST to /mcp, counted here at the HTTP level before the MCP layer sees
 * the body (so a call with bad arguments counts, as a REST 400 does). A request refused here
 * still reaches its handler, which answers with the quota error instead of breaking the session.
 */
export class RequestQuota {
  private readonly decisions = new Map<RequestId, QuotaDecision>();
  /** The most recent decision, for the X-RateLimit-* headers of the HTTP response. */
  latest: QuotaDecision | undefined;

  private constructor(
    private readonly services: ApiServices,
    private readonly owner: KeyOwner,
  ) {}

  static async count(body: unknown, owner: KeyOwner, services: ApiServices): Promise<RequestQuota> {
    const quota = new RequestQuota(services, owner);
    const messages = Array.isArray(body) ? body : [body];
    for (const message of messages) {
      if (isJSONRPCRequest(message) && COUNTED_METHODS.has(message.method)) {
        const free = message.method === 'tools/call' && FREE_TOOLS.has(String(message.params?.name));
        quota.decisions.set(message.id, await quota.consume(free ? 0 : 1));
      }
    }
    return quota;
  }

  /** The decision for one counted request; counted now if the body did not show it (it always should). */
  async decisionFor(requestId: RequestId): Promise<QuotaDecision> {
    let decision = this.decisions.get(requestId);
    if (decision === undefined) this.decisions.set(requestId, (decision = await this.consume()));
    return decision;
  }

  private async consume(cost = 1): Promise<QuotaDecision> {
    const { account, keyId } = this.owner;
    this.latest = await this.services.quota.consume(account.id, keyId, account.plan.dailyQuota, this.services.clock(), cost);
    return this.latest;
  }
}
