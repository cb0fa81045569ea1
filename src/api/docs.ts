import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { stringify } from 'yaml';

/** Swagger UI's files come from the installed package: the reference works with no internet. */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sound Catalog API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout'
});
`;

export function registerDocs(app: FastifyInstance, document: () => Record<string, unknown>): void {
  const swaggerRoot = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  let yamlCache: string | null = null;

  app.get('/openapi.json', async () => document());
  app.get('/openapi.yaml', async (_request, reply) => {
    yamlCache ??= stringify(document());
    return reply.type('application/yaml; charset=utf-8').send(yamlCache);
  });
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
  app.get('/docs/assets/init.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(INIT_SCRIPT));
  app.get<{ Params: { file: string } }>('/docs/assets/:file', async (request, reply) => {
    const type = SWAGGER_FILES[request.params.file];
    if (!type) return reply.code(404).send({ error: 'Not found' });
    const body = await readFile(path.join(swaggerRoot, request.params.file));
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
}
