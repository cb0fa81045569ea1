import type { FastifyRequest } from 'fastify';
import type { KeyOwner } from '../accounts/store.ts';
import { HttpError, upgradeUrl } from '../shapes/answers.ts';
import { DomainError } from '../errors.ts';
import type { ApiServices } from '../services.ts';

/**
 * Who is calling /mcp, settled at the HTTP level before any MCP message is read: a missing or
 * invalid x-api-key is a 401 and a plan without API access a 403, with the REST bodies. Only
 * x-api-key is read, so `Authorization: Bearer` alone is a 401 here too. Unknown keys are limited
 * per client address as on REST (429 before the lookup). Nothing is counted yet: only tool calls,
 * resource reads and pages of resources/list spend quota (request-quota.ts).
 */
export async function authenticateMcpCaller(request: FastifyRequest, services: ApiServices): Promise<void> {
  const header = request.headers['x-api-key'];
  try {
    request.owner = await services.accounts.authenticate(
      Array.isArray(header) ? header[0] : header,
      request.server.unknownApiKeys.guardFor(request),
    );
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'forbidden') {
      throw new HttpError(403, { error: error.message, upgrade_url: upgradeUrl(services.baseUrl()) });
    }
    throw error;
  }
}

export function callerOf(request: FastifyRequest): KeyOwner {
  if (!request.owner) throw new Error('the /mcp route ran without its authentication hook');
  return request.owner;
}
