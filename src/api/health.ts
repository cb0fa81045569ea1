import type { FastifyInstance } from 'fastify';

/** Liveness (the process answers) and readiness (every store answers: database, quota counters). */
export function registerHealth(app: FastifyInstance, ready: () => Promise<void>): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await ready();
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ error: 'Not ready: a store does not answer' });
    }
  });
}
