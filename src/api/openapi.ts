import { z } from 'zod';
import type { Endpoint } from './endpoint.ts';
import { components } from '../shapes/schemas.ts';

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Daily quota of the plan.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests remaining today.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix timestamp of the reset (midnight UTC).', schema: { type: 'integer' } },
};

const toRef = (id: string) => `#/components/schemas/${id}`;

/** The OpenAPI 3.1 document, derived entirely from the endpoint declarations and their zod schemas. */
export function buildOpenApiDocument(endpoints: Endpoint[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const path = endpoint.url.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operationOf(endpoint) };
  }
  const { schemas } = z.toJSONSchema(components, { uri: toRef, unrepresentable: 'any' }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(schemas)) delete schema.$schema;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sound Catalog API',
      version: '1.0.0',
      description: 'Search, preview and download a catalog of CC0 sound effects and music. Every sound is CC0 1.0: '
        + 'commercial use allowed, no attribution required. Delivered files are MP3. An MCP server for AI agents is at /mcp.',
      license: { name: 'CC0 1.0 (catalog sounds)', identifier: 'CC0-1.0' },
    },
    servers: [{ url: serverUrl }],
    tags: [{ name: 'Samples', description: 'Public, no API key.' }, { name: 'Sounds', description: 'Pro and Enterprise plans.' }],
    paths,
    components: {
      schemas,
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    },
  };
}

function operationOf(endpoint: Endpoint): Record<string, unknown> {
  const parameters = [
    ...parametersOf(endpoint.params, 'path'),
    ...parametersOf(endpoint.query, 'query'),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(endpoint.responses)) {
    const withQuotaHeaders = endpoint.security === 'apiKey' && (status === '200' || status === '429');
    responses[status] = {
      description: response.description,
      ...(withQuotaHeaders && {
        headers: status === '429' ? { ...RATE_LIMIT_HEADERS, 'Retry-After': { description: 'Seconds until the reset.', schema: { type: 'integer' } } } : RATE_LIMIT_HEADERS,
      }),
      content: { 'application/json': { schema: schemaOf(response.schema) } },
    };
  }
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [endpoint.tag],
    security: endpoint.security === 'apiKey' ? [{ ApiKey: [] }] : [],
    parameters,
    responses,
  };
}

function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { description?: string }>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: location, required: location === 'path' || (json.required ?? []).includes(name), description, schema: rest };
  });
}

/** A response schema whose registered parts point at the components instead of local $defs. */
function schemaOf(schema: z.ZodType): unknown {
  const json = z.toJSONSchema(schema, { metadata: components, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  delete json.$defs;
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/'));
}
