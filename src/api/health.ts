import type { FastifyInstance } from 'fastify';
import { NotReadyError } from '../services.ts';

/** Liveness (the process answers) and readiness (every store answers: database, quota counters, media store). */
export function registerHealth(app: FastifyInstance, ready: () => Promise<void>): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await ready();
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      // The dependency is named (never its address or error): an operator's probe says what to look at.
      if (error instanceof NotReadyError)
        return reply
          .code(503)
          .send({ error: `Not ready: the ${error.dependency} does not answer`, dependency: error.dependency });
      return reply.code(503).send({ error: 'Not ready: a store does not answer' });
    }
  });
}
