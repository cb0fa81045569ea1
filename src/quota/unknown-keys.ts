import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyLookupGuard } from '../accounts/service.ts';
import { clientGroupOf } from '../net/client-group.ts';

/**
 * Unknown API keys one client address may send in a window before it is refused without a
 * lookup. A key with a valid checksum is easy to make, and each costs a database read: a client
 * with a mistyped key sees its 401 this many times, a flood sees 429 after that.
 */
export const UNKNOWN_KEY_RULE = { keys: 20, windowMs: 60_000 };

declare module 'fastify' {
  interface FastifyInstance {
    /** Limits unknown API keys per client address, for REST and MCP alike (addUnknownKeyThrottle). */
    unknownApiKeys: UnknownKeyThrottle;
  }
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Counts unknown keys per client address with @fastify/rate-limit (its in-memory store: a count
 * per process, at most 5,000 addresses, the least recent dropped first). The address is
 * request.ip, the client's behind a trusted proxy (TRUST_PROXY), counted by its group
 * (clientGroupOf: IPv6 addresses by /64, as one client holds a whole /64). Only an unknown key
 * is counted: known keys never are, and a throttled address is told so before its key is looked up.
 */
export class UnknownKeyThrottle {
  constructor(
    private readonly limiter: Limiter,
    private readonly clock: () => number,
  ) {}

  /** What authenticate() asks for this request. */
  guardFor(request: FastifyRequest): KeyLookupGuard {
    return {
      beforeLookup: () => this.refuseWhenOver(request),
      unknownKey: async () => void (await this.limiter(request)),
    };
  }

  private async refuseWhenOver(request: FastifyRequest): Promise<void> {
    const status = await this.limiter(request, { increment: false });
    if (status.isAllowed || status.remaining > 0) return;
    const retryAfter = Math.max(1, status.ttlInSeconds);
    const reset = Math.floor(this.clock() / 1000) + retryAfter;
    throw new TooManyUnknownKeys(status.max, reset, retryAfter);
  }
}

/**
 * An address refused for the unknown keys it sent. The HTTP layer answers it as every API 429
 * (api/errors.ts): the body `{ error, limit, reset }` and the rate-limit headers.
 */
export class TooManyUnknownKeys extends Error {
  constructor(
    readonly limit: number,
    /** Unix time, seconds, when the address may try again. */
    readonly reset: number,
    readonly retryAfter: number,
  ) {
    super(
      `Too many unknown API keys from this address: ${limit} in ${UNKNOWN_KEY_RULE.windowMs / 1000} seconds; ` +
        `try again in ${retryAfter} seconds`,
    );
  }
}

/**
 * Registers @fastify/rate-limit in a scope of its own (so the dashboard's registration, with its
 * own store, is not shadowed) and decorates the app with the throttle that REST and MCP share.
 */
export async function addUnknownKeyThrottle(app: FastifyInstance, clock: () => number): Promise<void> {
  let limiter: Limiter | undefined;
  await app.register(async (scope) => {
    await scope.register(rateLimit, { global: false });
    limiter = scope.createRateLimit({
      max: UNKNOWN_KEY_RULE.keys,
      timeWindow: UNKNOWN_KEY_RULE.windowMs,
      keyGenerator: (request) => clientGroupOf(request.ip),
    });
  });
  app.decorate('unknownApiKeys', new UnknownKeyThrottle(limiter!, clock));
}
