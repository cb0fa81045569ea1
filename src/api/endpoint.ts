import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { KeyOwner } from '../accounts/store.ts';
import type { ApiServices } from '../services.ts';
import { HttpError } from '../shapes/answers.ts';
import { authenticateAndCount } from './auth.ts';
import { compileSerializer } from './serializer.ts';

export type Status = 200 | 304 | 400 | 401 | 403 | 404 | 410 | 429 | 500 | 503;

export interface EndpointContext<Q, P> {
  query: Q;
  params: P;
  /** The caller, on endpoints that need an API key. */
  owner: KeyOwner | null;
  services: ApiServices;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** One listed answer: what the API document says of it, and its zod schema. */
export interface Answer<S extends z.ZodType = z.ZodType> {
  description: string;
  schema: S;
  /**
   * Its media type, when not JSON: a handler sends such an answer's bytes on `reply` itself (an
   * image), and the schema only describes them in the document.
   */
  mediaType?: string;
}

/** A listed answer without a body (304). */
export interface EmptyAnswer {
  description: string;
  schema?: undefined;
}

/**
 * Every status an endpoint may answer, and nothing else (API document, "Errors", rule 2). The 200
 * is always there: its schema `S` is what the handler must return.
 */
export type Responses<S extends z.ZodType = z.ZodType> = { 200: Answer<S> } & Partial<
  Record<Exclude<Status, 200>, Answer | EmptyAnswer>
>;

/**
 * One endpoint, declared once: its route, its documentation, its schemas and its handler.
 * Routing, validation (fastify-type-provider-zod), auth, the writing of each answer
 * (serializer.ts) and the OpenAPI document (@fastify/swagger) are all derived from this.
 */
export interface Endpoint<
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  S extends z.ZodType = z.ZodType,
> {
  method: 'GET';
  /** Fastify route syntax (`/api/v1/sounds/:id`); the OpenAPI path is derived from it. */
  url: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  security: 'public' | 'apiKey';
  query: Q;
  params?: P;
  responses: Responses<S>;
  /**
   * Returns the 200 body, of the schema's type; only the fields the schema lists are written. Any
   * other answer is thrown (HttpError, DomainError) or sent on `reply`, which it then returns.
   */
  handler(context: EndpointContext<z.output<Q>, z.output<P>>): Promise<z.output<S> | FastifyReply>;
}

/** Keeps the schema types of one endpoint tied to its handler: the query and params it gets, the body it returns. */
export function defineEndpoint<
  Q extends z.ZodType,
  S extends z.ZodType,
  P extends z.ZodType = z.ZodObject<Record<string, never>>,
>(endpoint: Endpoint<Q, P, S>): Endpoint {
  return endpoint;
}

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'Daily quota of the plan.' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests remaining today.' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Unix timestamp of the reset (midnight UTC).' },
};
const RETRY_AFTER_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  'Retry-After': { type: 'integer', description: 'Seconds until the reset.' },
};

/**
 * Registers the endpoints in a scope of their own: the query and path are validated by their zod
 * schemas before the handler runs (after the key and quota hook), and every listed answer is
 * written by a serializer compiled from its schema.
 */
export function registerEndpoints(app: FastifyInstance, endpoints: Endpoint[], services: ApiServices): void {
  app.register(async (scope) => {
    scope.setValidatorCompiler(validatorCompiler);
    scope.setSerializerCompiler(compileSerializer);
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    for (const endpoint of endpoints) {
      routes.route({
        method: endpoint.method,
        url: endpoint.url,
        schema: routeSchemaOf(endpoint),
        onRequest:
          endpoint.security === 'apiKey'
            ? (request, reply) => authenticateAndCount(request, reply, services)
            : undefined,
        handler: (request, reply) =>
          endpoint.handler({
            query: request.query,
            params: request.params,
            owner: request.owner ?? null,
            services,
            request,
            reply,
          }),
      });
    }
  });
}

/** The route schema: what Fastify validates and serializes with, and what @fastify/swagger publishes. */
function routeSchemaOf(endpoint: Endpoint) {
  const response: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(endpoint.responses) as Array<[string, Answer | EmptyAnswer]>) {
    const { description, schema } = answer;
    // No body: the document lists the status without content (@fastify/swagger's form for it is type null).
    if (!schema) {
      response[status] = z.null().describe(description);
      continue;
    }
    const quotaHeaders = endpoint.security === 'apiKey' && (status === '200' || status === '429');
    const mediaType = ('mediaType' in answer && answer.mediaType) || 'application/json';
    response[status] = {
      description,
      ...(quotaHeaders && { headers: status === '429' ? RETRY_AFTER_HEADERS : RATE_LIMIT_HEADERS }),
      content: { [mediaType]: { schema } },
    };
  }
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [endpoint.tag],
    security: endpoint.security === 'apiKey' ? [{ ApiKey: [] }] : [],
    querystring: endpoint.query,
    ...(endpoint.params && { params: endpoint.params }),
    response,
  };
}

/** The one 400 shape: `{ error, details: [{ param, message }] }` (operator contract). */
export function invalidQuery(details: Array<{ param: string; message: string }>): HttpError {
  const summary = details.map((detail) => `${detail.param}: ${detail.message}`).join('; ');
  return new HttpError(400, { error: `Invalid query parameters: ${summary}`, details });
}

/** Fastify's validation error (zod issues from the type provider) as the 400 answer. */
export function invalidQueryOf(
  validation: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }>,
): HttpError {
  return invalidQuery(
    validation.flatMap((issue) =>
      issue.keyword === 'unrecognized_keys'
        ? (issue.params.keys as string[]).map((key) => ({ param: key, message: 'Unknown parameter' }))
        : [
            {
              param: issue.instancePath.slice(1).replaceAll('/', '.') || '(query)',
              message: issue.message ?? 'Invalid value',
            },
          ],
    ),
  );
}
