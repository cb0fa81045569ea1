import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { registerDocs } from './api/docs.ts';
import { registerErrorHandling } from './api/errors.ts';
import { registerEndpoints } from './api/endpoint.ts';
import { registerHealth } from './api/health.ts';
import { registerOpenApi } from './api/openapi.ts';
import { soundEndpoints } from './api/sounds/index.ts';
import { registerDashboard } from './dashboard/index.ts';
import { registerMcp } from './mcp/index.ts';
import { registerMediaRoute } from './media/route.ts';
import { OneLinePerRequest } from './logging.ts';
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
    logController: new OneLinePerRequest(),
    trustProxy: false,
    routerOptions: { maxParamLength: 200 },
    // A path the router cannot read (bad percent-encoding, an over-long id) names nothing that
    // exists: 404 in our error shape (403 for media, where any altered URL is refused), never a
    // status an endpoint does not list.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (request.url.startsWith('/media/')) return reply.code(403).send({ error: 'This link is not valid' });
      if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(404).send({ error: 'Not found' });
      request.log.error({ err: error }, 'router failed');
      return reply.code(500).send({ error: 'Internal server error' });
    },
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Each part gets the services it uses and no others.
  const { catalog, accounts, quota, usageHistory, signer, files, renditions, sessions, signInFailures, csrfSecret, clock, baseUrl } = services;
  const api = { catalog, accounts, quota, signer, clock, baseUrl };
  registerErrorHandling(app);
  await registerOpenApi(app, baseUrl);
  registerHealth(app, () => services.ready());
  registerEndpoints(app, soundEndpoints, api);
  registerMediaRoute(app, { catalog, signer, files, renditions, clock });
  await registerDocs(app);
  registerMcp(app, { ...api, files, renditions });
  registerDashboard(app, { catalog, accounts, usageHistory, signer, sessions, signInFailures, csrfSecret, clock, baseUrl });
  return app;
}
