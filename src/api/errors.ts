import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { withoutApiKeys } from '../api-key-format.ts';
import { DomainError } from '../errors.ts';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { TooManyUnknownKeys } from '../quota/unknown-keys.ts';
import { HttpError } from '../shapes/answers.ts';
import { invalidQueryOf } from './endpoint.ts';
import { rateLimitHeaders } from '../quota/quota.ts';

const STATUS_OF_KIND: Record<DomainError['kind'], number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  limit: 409,
};

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | DomainError | TooManyUnknownKeys, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) error = invalidQueryOf(error.validation);
    if (error instanceof TooManyUnknownKeys) error = tooManyUnknownKeysAnswer(error);
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    if (error instanceof DomainError) {
      return reply.code(STATUS_OF_KIND[error.kind]).send({ error: error.message });
    }
    const status = error.statusCode ?? 500;
    // No route: 404 whatever the body, which the body parser may have refused first (400, 413) though
    // nothing would have read it. The API's paths answer only the statuses their operations list.
    if (request.is404 && status < 500) return reply.code(404).send(notFoundBody(request));
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ error: 'Internal server error' });
    }
    // Fastify's own client errors (malformed URL, body too large, ...): keep the status, our shape.
    return reply.code(status).send({ error: error.message });
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send(notFoundBody(request)));
}

function notFoundBody(request: FastifyRequest): { error: string } {
  return { error: withoutApiKeys(`Route ${request.method} ${request.url.split('?')[0]} not found`) };
}

/** The 429 of every API answer, REST and MCP alike: its body and the rate-limit headers. */
function tooManyUnknownKeysAnswer({ message, limit, reset, retryAfter }: TooManyUnknownKeys): HttpError {
  const headers = rateLimitHeaders({ allowed: false, limit, remaining: 0, reset });
  return new HttpError(429, { error: message, limit, reset }, { ...headers, 'retry-after': retryAfter });
}
