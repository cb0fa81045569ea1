import Fastify, { type FastifyInstance } from 'fastify';
import type { Metrics } from './index.ts';

/**
 * The metrics listener: GET /metrics and nothing else, on its own port (METRICS_PORT) and address
 * (METRICS_HOST, loopback by default), so the API's port never shows the service's insides and a
 * firewall can keep Prometheus's port private. Returns the address it took and how to close it.
 */
export async function listenForScrapes(
  metrics: Metrics,
  port: number,
  host: string,
): Promise<{ address: string; close(): Promise<void> }> {
  const server: FastifyInstance = Fastify({ logger: false });
  server.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });
  const address = await server.listen({ port, host });
  return { address, close: () => server.close() };
}
