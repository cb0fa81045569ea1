import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** The OpenAPI document at /openapi.json and /openapi.yaml. */
export function registerDocument(app: FastifyInstance): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/openapi.yaml', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })),
  );
}

/**
 * The reference at /docs (@fastify/swagger-ui, whose files come from the installed package: it
 * works with no internet).
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
}
