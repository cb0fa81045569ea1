import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { KeyOwner } from '../accounts/store.ts';
import { payerOf } from '../metering/meter.ts';
import type { QuotaDecision } from '../quota/quota.ts';
import type { ApiServices } from '../services.ts';
import { INTERNAL_ERROR, INVALID_REQUEST } from './json-rpc.ts';

/**
 * The MCP methods that read the catalog, each one request of the daily quota like one REST
 * request: tool calls, resource reads and pages of resources/list. Describing the server
 * (initialize, ping, tools/list, resources/templates/list, prompts/list, prompts/get) and
 * notifications are free.
 */
const COUNTED_METHODS = new Set(['tools/call', 'resources/read', 'resources/list']);
/** Tools that cost nothing: their call is counted at cost 0, which states the quota without spending it. */
const FREE_TOOLS = new Set(['get_quota']);

/** What one request costs: null when it is not metered at all, 0 for a metered call that spends nothing. */
export function costOf(request: JSONRPCRequest): number | null {
  if (!COUNTED_METHODS.has(request.method)) return null;
  return request.method === 'tools/call' && FREE_TOOLS.has(String(request.params?.name)) ? 0 : 1;
}

/**
 * The one place MCP spends an account's quota, through the meter, for the key that called; a
 * refused spend is not counted.
 */
function charge(services: ApiServices, owner: KeyOwner, cost: number): Promise<QuotaDecision> {
  return services.meter.charge(payerOf(owner), cost);
}

/**
 * The quota spent by one POST to /mcp, decided message by message as the transport hands each one
 * to the server: only what the transport accepted and runs is counted (not a body it refuses for a
 * bad header or a malformed entry), and each request is decided before its handler sees it (so a
 * call with bad arguments counts, as a REST 400 does). A request refused here still reaches its
 * handler, which answers with the quota error instead of breaking the session.
 *
 * Each decision belongs to one request and is stored once under its id, the only thing its handler
 * knows of it; a second request under the same id is refused, never given a decision made for
 * another (batch.ts refuses such a batch before the transport sees it).
 */
export class RequestQuota {
  private readonly decisions = new Map<RequestId, QuotaDecision>();
  /** Requests are decided one after another, in the body's order, so `remaining` falls in that order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly services: ApiServices,
    private readonly owner: KeyOwner,
    /** Told of every decision before the answer to its request can be written (for X-RateLimit-*). */
    private readonly onDecision: (decision: QuotaDecision) => void,
  ) {}

  /**
   * Puts the metering between the transport and the server. Call after `server.connect(transport)`
   * and after any other wrapper of onmessage, so that it runs first. Notifications go straight
   * through (there is nothing to decide), so they reach the server before any request of the same
   * body: a notifications/cancelled then names a request not started yet and is ignored, as the
   * MCP specification allows, rather than leaving a JSON answer waiting for a reply that a
   * cancelled request never sends.
   */
  meter(transport: Transport, log: FastifyBaseLogger): void {
    const deliver = transport.onmessage;
    if (!deliver) throw new Error('connect the MCP server to the transport first');
    transport.onmessage = (message, extra) => {
      if (!isJSONRPCRequest(message)) return deliver(message, extra);
      this.queue = this.queue
        .then(async () => {
          const refusal = await this.decide(message, log);
          if (refusal === null) deliver(message, extra);
          else await transport.send(refusal);
        })
        .catch((error: unknown) => log.warn({ err: error }, 'delivering an MCP request failed'));
    };
  }

  /** The decision made for one counted request; only a handler of a counted method may ask. */
  decisionFor(requestId: RequestId): QuotaDecision {
    const decision = this.decisions.get(requestId);
    if (decision === undefined) throw new Error(`no quota decision for MCP request ${String(requestId)}`);
    return decision;
  }

  /** Records the decision for a counted request; the error to answer instead of running it, or null. */
  private async decide(request: JSONRPCRequest, log: FastifyBaseLogger): Promise<JSONRPCErrorResponse | null> {
    const refuse = (code: number, message: string) => ({
      jsonrpc: '2.0' as const,
      id: request.id,
      error: { code, message },
    });
    const cost = costOf(request);
    if (cost === null) return null;
    if (this.decisions.has(request.id)) {
      return refuse(INVALID_REQUEST, 'Invalid Request: a request id used twice in one body');
    }
    try {
      const decision = await charge(this.services, this.owner, cost);
      this.decisions.set(request.id, decision);
      this.onDecision(decision);
      return null;
    } catch (error) {
      log.error({ err: error }, 'counting an MCP request against the quota failed');
      return refuse(INTERNAL_ERROR, 'Internal server error');
    }
  }
}
