import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyOwner } from '../accounts/store.ts';
import { DomainError } from '../errors.ts';
import { payerOf } from '../metering/meter.ts';
import type { ApiServices } from '../services.ts';
import { HttpError, upgradeUrl } from '../shapes/answers.ts';
import { rateLimitHeaders } from '../quota/quota.ts';

declare module 'fastify' {
  interface FastifyRequest {
    owner?: KeyOwner;
  }
}

/**
 * Runs before validation on every API-key route: who is calling, may they, and one request of
 * their daily quota. A request refused with 429 is not counted; every later status is. An address
 * that sent too many unknown keys is answered 429 before its key is looked up (quota/unknown-keys.ts).
 */
export async function authenticateAndCount(
  request: FastifyRequest,
  reply: FastifyReply,
  services: ApiServices,
): Promise<void> {
  const header = request.headers['x-api-key'];
  let owner: KeyOwner;
  try {
    owner = await services.accounts.authenticate(
      Array.isArray(header) ? header[0] : header,
      request.server.unknownApiKeys.guardFor(request),
    );
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'forbidden') {
      throw new HttpError(403, { error: error.message, upgrade_url: upgradeUrl(services.baseUrl()) });
    }
    throw error;
  }
  const decision = await services.meter.charge(payerOf(owner));
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    const retryAfter = Math.max(1, decision.reset - Math.floor(services.clock() / 1000));
    throw new HttpError(
      429,
      {
        error: `Daily quota of ${decision.limit} requests exceeded; it resets at midnight UTC`,
        limit: decision.limit,
        reset: decision.reset,
      },
      { ...headers, 'retry-after': retryAfter },
    );
  }
  reply.headers(headers);
  request.owner = owner;
}
