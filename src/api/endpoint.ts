import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { KeyOwner } from '../accounts/store.ts';
import type { Services } from '../services.ts';
import { authenticateAndCount } from './auth.ts';
import { HttpError } from '../shapes/answers.ts';

export type Status = 200 | 400 | 401 | 403 | 404 | 429 | 500;

export interface EndpointContext<Q, P> {
  query: Q;
  params: P;
  /** The caller, on endpoints that need an API key. */
  owner: KeyOwner | null;
  services: Services;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One endpoint, declared once: its route, its documentation, its schemas and its handler.
 * Routing, validation, auth and the OpenAPI document are all derived from this.
 */
export interface Endpoint<Q extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType> {
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
  /** Every status this endpoint may answer, and nothing else (API document, "Errors", rule 2). */
  responses: Partial<Record<Status, { description: string; schema: z.ZodType }>>;
  handler(context: EndpointContext<z.output<Q>, z.output<P>>): Promise<unknown>;
}

/** Keeps the schema types of one endpoint tied to its handler's argument types. */
export function defineEndpoint<Q extends z.ZodType, P extends z.ZodType = z.ZodObject<{}>>(endpoint: Endpoint<Q, P>): Endpoint {
  return endpoint as unknown as Endpoint;
}

export function registerEndpoints(app: FastifyInstance, endpoints: Endpoint[], services: Services): void {
  for (const endpoint of endpoints) {
    const success = endpoint.responses[200];
    app.route({
      method: endpoint.method,
      url: endpoint.url,
      // The 200 schema also drives Fastify's compiled serializer: faster than JSON.stringify, and
      // a field that is not declared can never reach a client.
      schema: success ? { response: { 200: serializerSchema(success.schema) } } : undefined,
      onRequest: endpoint.security === 'apiKey' ? (request, reply) => authenticateAndCount(request, reply, services) : undefined,
      handler: async (request, reply) => {
        const query = parseOrThrow(endpoint.query, request.query);
        const params = endpoint.params ? parseOrThrow(endpoint.params, request.params) : request.params;
        return endpoint.handler({ query, params, owner: request.owner ?? null, services, request, reply });
      },
    });
  }
}

function serializerSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function parseOrThrow(schema: z.ZodType, input: unknown): unknown {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ param: key, message: 'Unknown parameter' }))
      : [{ param: issue.path.map(String).join('.') || '(query)', message: issue.message }],
  );
  throw invalidQuery(details);
}

/** The one 400 shape: `{ error, details: [{ param, message }] }` (operator contract). */
export function invalidQuery(details: Array<{ param: string; message: string }>): HttpError {
  const summary = details.map((detail) => `${detail.param}: ${detail.message}`).join('; ');
  return new HttpError(400, { error: `Invalid query parameters: ${summary}`, details });
}
