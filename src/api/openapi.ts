import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { components } from '../shapes/schemas.ts';

/**
 * The OpenAPI 3.1 document, made by @fastify/swagger from the routes the endpoints declare
 * (fastify-type-provider-zod turns their zod schemas into JSON Schema; the shared shapes become
 * components). Only tagged routes, the API's, are published.
 */
export async function registerOpenApi(app: FastifyInstance, baseUrl: () => string): Promise<void> {
  const ids = z.toJSONSchema(components, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  const schemas = Object.fromEntries(Object.entries(ids.schemas).map(([id, { $schema, ...schema }]) => [id, schema]));
  const securitySchemes = { ApiKey: { type: 'apiKey' as const, in: 'header', name: 'x-api-key' } };
  const fromZod = createJsonSchemaTransform({
    schemaRegistry: components,
    skipList: [],
    // Descriptions (`.describe()`) live in zod's global registry, ids in `components`: both are published.
    zodToJsonConfig: {
      override: ({ zodSchema, jsonSchema }) => {
        const description = z.globalRegistry.get(zodSchema)?.description;
        if (description !== undefined) jsonSchema.description ??= description;
      },
    },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sound Catalog API',
        version: '1.0.0',
        description: 'Search, preview and download a catalog of CC0 sound effects and music. Every sound is CC0 1.0: '
          + 'commercial use allowed, no attribution required. Delivered files are MP3. An MCP server for AI agents is at /mcp.',
        license: { name: 'CC0 1.0 (catalog sounds)', identifier: 'CC0-1.0' },
      },
      tags: [{ name: 'Samples', description: 'Public, no API key.' }, { name: 'Sounds', description: 'Pro and Enterprise plans.' }],
      components: { securitySchemes },
    },
    hideUntagged: true,
    transform: (route) => {
      const result = fromZod(route);
      // The type provider keeps a response's description and content; its quota headers go back in.
      for (const [status, response] of Object.entries(route.schema?.response ?? {}) as Array<[string, { headers?: unknown }]>) {
        if (response.headers) (result.schema.response as Record<string, Record<string, unknown>>)[status]!.headers = response.headers;
      }
      return result;
    },
    // Made on the first request, after listen, when the server's address is known. The components
    // go in here as zod wrote them (@fastify/swagger would turn their $id into a title).
    transformObject: (document) => {
      const openapi = 'openapiObject' in document ? document.openapiObject : {};
      return { ...openapi, servers: [{ url: baseUrl() }], components: { schemas, securitySchemes } } as typeof openapi;
    },
  });
}
