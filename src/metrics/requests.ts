import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/** The label of a request no route matched (a 404): its raw path would make a series per path tried. */
const UNMATCHED = 'unmatched';

/**
 * From a millisecond to ten seconds: a search answers in about a millisecond, a rendition being
 * made in seconds, and Prometheus's default buckets start at 5 ms, too coarse for the first.
 */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Times every answer by the route's pattern (`/api/v1/sounds/:id`), never its URL: ids and query
 * strings would make a series each. One onResponse hook on the whole app; the time is Fastify's own.
 */
export function timeRequests(app: FastifyInstance, registry: Registry): void {
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: "Time from a request's arrival to its answer's last byte, by method, route pattern and status code.",
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    durations.observe(
      { method: request.method, route: request.routeOptions.url ?? UNMATCHED, status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
  });
}
