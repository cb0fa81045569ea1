import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerDocs } from './api/docs.ts';
import { registerErrorHandling } from './api/errors.ts';
import { registerEndpoints } from './api/endpoint.ts';
import { registerHealth } from './api/health.ts';
import { buildOpenApiDocument } from './api/openapi.ts';
import { soundEndpoints } from './api/sounds/index.ts';
import { registerDashboard } from './dashboard/index.ts';
import { registerMcp } from './mcp/index.ts';
import { registerMediaRoute } from './media/route.ts';
import type { Services } from './services.ts';

export interface AppOptions {
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
}

/** Builds the HTTP application from its services. Listening is the caller's business. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: false,
    routerOptions: { maxParamLength: 200 },
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  registerHealth(app, services);
  registerEndpoints(app, soundEndpoints, services);
  registerMediaRoute(app, services);
  registerDocs(app, () => buildOpenApiDocument(soundEndpoints, services.baseUrl()));
  registerMcp(app, services);
  registerDashboard(app, services);
  return app;
}
