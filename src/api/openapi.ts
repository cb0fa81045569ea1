import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { components } from '../shapes/schemas.ts';

/** What the `extensions` tag stands for; the marks the rest of the document uses for additions. */
const EXTENSIONS_TAG_DESCRIPTION =
  'Additions to the API document 1.0.0: operations tagged extensions, and on its operations ' +
  'optional parameters marked x-extension, enum values listed in x-extension-values, optional response fields ' +
  'marked x-extension, and fields whose shape is an extension component (Sound.loop, a Loop or null, on every ' +
  'full sound). sort=relevance (search) ranks matches of q: a match in the name above one in a tag above one ' +
  'in the description, a whole word above the beginning of a word above its inside; ties by downloads, then id; ' +
  'without q it orders like downloads. Without the new parameters every answer is that of 1.0.0 plus those fields.';

/**
 * The OpenAPI 3.1 document, made by @fastify/swagger from the routes the endpoints declare
 * (fastify-type-provider-zod turns their zod schemas into JSON Schema; the shared shapes become
 * components). Only tagged routes, the API's, are published.
 */
export async function registerOpenApi(app: FastifyInstance, baseUrl: () => string): Promise<void> {
  const ids = z.toJSONSchema(components, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (components.get(zodSchema)?.['x-extension']) jsonSchema['x-extension'] = true;
    },
  }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  const schemas = Object.fromEntries(Object.entries(ids.schemas).map(([id, { $schema, ...schema }]) => [id, schema]));
  const securitySchemes = { ApiKey: { type: 'apiKey' as const, in: 'header', name: 'x-api-key' } };
  const fromZod = createJsonSchemaTransform({
    schemaRegistry: components,
    skipList: [],
    // Descriptions (`.describe()`) and `x-` marks (`.meta()`) live in zod's global registry, ids in
    // `components`: all are published.
    zodToJsonConfig: {
      override: ({ zodSchema, jsonSchema }) => {
        const { description, ...meta } = z.globalRegistry.get(zodSchema) ?? {};
        if (description !== undefined) jsonSchema.description ??= description;
        for (const [key, value] of Object.entries(meta)) if (key.startsWith('x-')) jsonSchema[key] = value;
      },
    },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sound Catalog API',
        version: '1.0.0',
        description:
          'Search, preview and download a catalog of CC0 sound effects and music. Every sound is CC0 1.0: ' +
          'commercial use allowed, no attribution required. Delivered files are MP3. An MCP server for AI ' +
          'agents is at /mcp.',
        license: { name: 'CC0 1.0 (catalog sounds)', identifier: 'CC0-1.0' },
      },
      tags: [
        { name: 'Samples', description: 'Public, no API key.' },
        { name: 'Sounds', description: 'Pro and Enterprise plans.' },
        { name: 'extensions', description: EXTENSIONS_TAG_DESCRIPTION },
      ],
      components: { securitySchemes },
    },
    hideUntagged: true,
    transform: (route) => {
      const result = fromZod(route);
      // The type provider keeps a response's description and content; its quota headers go back in.
      for (const [status, response] of Object.entries(route.schema?.response ?? {}) as Array<
        [string, { headers?: unknown }]
      >) {
        if (response.headers)
          (result.schema.response as Record<string, Record<string, unknown>>)[status]!.headers = response.headers;
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
