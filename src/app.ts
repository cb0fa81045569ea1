import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { registerCors } from './api/cors.ts';
import { registerDocs, registerDocument } from './api/docs.ts';
import { registerErrorHandling } from './api/errors.ts';
import { registerEndpoints } from './api/endpoint.ts';
import { registerHealth } from './api/health.ts';
import { boundShutdown, capConnections, SERVER_LIMITS, serverOptionsOf, type ServerLimits } from './api/limits.ts';
import { registerOpenApi } from './api/openapi.ts';
import { soundEndpoints } from './api/sounds/index.ts';
import { registerDashboard } from './dashboard/index.ts';
import { registerMcp } from './mcp/index.ts';
import { registerMediaRoute } from './media/route.ts';
import { registerPackRoute } from './packs/route.ts';
import type { Metrics } from './metrics/index.ts';
import { OneLinePerRequest } from './logging.ts';
import { addUnknownKeyThrottle } from './quota/unknown-keys.ts';
import type { TrustProxy } from './config.ts';
import type { Services } from './services.ts';

export interface AppOptions {
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
  /** Tests shorten the server's timeouts; the defaults are in api/limits.ts. */
  limits?: Partial<ServerLimits>;
  /** With METRICS_PORT: every answer is timed for Prometheus (metrics/). */
  metrics?: Metrics;
}

/** Builds the HTTP application from its services. Listening is the caller's business. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const limits: ServerLimits = { ...SERVER_LIMITS, maxConnections: services.config.maxConnections, ...options.limits };
  const app = Fastify({
    ...serverOptionsOf(limits),
    logger: options.logger ?? false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    logController: new OneLinePerRequest(),
    // request.ip (sign-in throttling, the log line) comes from X-Forwarded-For only as TRUST_PROXY says.
    trustProxy: trustProxyOf(services.config.trustProxy),
    routerOptions: { maxParamLength: 200 },
    // A path the router cannot read (bad percent-encoding, an over-long id) names nothing that
    // exists: 404 in our error shape (403 for media, where any altered URL is refused), never a
    // status an endpoint does not list.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (request.url.startsWith('/media/')) return reply.code(403).send({ error: 'This link is not valid' });
      if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH')
        return reply.code(404).send({ error: 'Not found' });
      request.log.error({ err: error }, 'router failed');
      return reply.code(500).send({ error: 'Internal server error' });
    },
  });
  capConnections(app, limits.maxConnections);
  boundShutdown(app, limits.shutdownGraceMs);
  options.metrics?.timeRequests(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Each part gets the services it uses and no others.
  const {
    catalog,
    accounts,
    meter,
    usageHistory,
    signer,
    files,
    renditions,
    packs,
    pictures,
    sessions,
    signInFailures,
    csrfSecret,
    clock,
    baseUrl,
  } = services;
  const api = { catalog, accounts, meter, signer, clock, baseUrl, packs, pictures };
  registerErrorHandling(app);
  await registerOpenApi(app, baseUrl);
  registerHealth(app, () => services.ready());
  // Before the routes that read API keys (REST, MCP): both ask it before a key is looked up.
  await addUnknownKeyThrottle(app, clock);
  // What a page on another site may fetch, in a scope of its own with @fastify/cors (api/cors.ts):
  // the routes outside it (the API-key endpoints, /mcp, the dashboard) run no CORS hook at all,
  // which cost every search throughput for headers it never sends.
  await app.register(async (crossOrigin) => {
    await registerCors(crossOrigin);
    registerEndpoints(
      crossOrigin,
      soundEndpoints.filter((endpoint) => endpoint.security === 'public'),
      api,
    );
    registerMediaRoute(crossOrigin, { catalog, signer, files, renditions, accounts, meter, clock });
    registerPackRoute(crossOrigin, { packs, signer, clock });
    registerDocument(crossOrigin);
  });
  registerEndpoints(
    app,
    soundEndpoints.filter((endpoint) => endpoint.security === 'apiKey'),
    api,
  );
  await registerDocs(app);
  registerMcp(app, { ...api, files, renditions });
  registerDashboard(app, {
    catalog,
    accounts,
    meter,
    usageHistory,
    signer,
    sessions,
    signInFailures,
    csrfSecret,
    clock,
    baseUrl,
    packs,
    pictures,
  });
  return app;
}

/**
 * Fastify (from 5.12.1) trusts nobody when given a bare hop count, since a client that reaches the
 * server directly can write X-Forwarded-For itself. TRUST_PROXY's hop count is documented for a
 * server that only its proxies can reach (docs/operations.md, "Behind a proxy"), so the count is applied here:
 * the socket's address is hop 0, the address its proxy added hop 1, and so on.
 */
function trustProxyOf(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}
