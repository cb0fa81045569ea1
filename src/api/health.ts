import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

export function registerHealth(app: FastifyInstance, services: Services): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Ready when the stores answer: the database (and, through it, the quota counters).
  app.get('/readyz', async (request, reply) => {
    try {
      await sql`SELECT 1`.execute(services.database.db);
      await services.quota.usage('readiness-probe', ['1970-01-01']);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ error: 'Not ready: a store does not answer' });
    }
  });
}
