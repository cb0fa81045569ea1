import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

const compileJsonSchema = SerializerSelector()({}, {});

/**
 * How each answer of an endpoint is written, by its status.
 *
 * A 200 answer is written by JSON.stringify. Its body is built by the mappers of shapes/mappers.ts
 * and the handlers as object literals of the schema's own types, field by field (a domain object
 * passed through whole must have exactly the schema's fields: mappers.ts checks that at compile
 * time), so it holds the schema's fields and no others; test/api/answer-shapes.test.ts writes the
 * answers of every endpoint both ways and compares them. Why not fast-json-stringify: it builds an
 * answer by joining about a thousand small strings per search page, and under load those pieces
 * reached V8's old generation, whose collections made the tail. JSON.stringify writes one flat
 * string. In process it is no faster (bench/serializer.ts); in the server, side by side
 * (bench/pairs.ts), it gave more requests a second, less CPU per request and a shorter tail.
 *
 * Every other answer (the errors) is written by Fastify's own compiled serializer,
 * fast-json-stringify, given the JSON Schema of its zod schema: whatever a thrown error carries,
 * only the declared fields reach a client.
 */
export const compileSerializer: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url, httpStatus }) => {
  if (String(httpStatus ?? '200') === '200') return writeJson;
  return compileSchemaWriter(schema, { method, url, httpStatus: httpStatus ?? '200' });
};

function writeJson(body: unknown): string {
  return JSON.stringify(body);
}

/** fast-json-stringify for a zod schema: writes exactly the fields the schema declares. */
export function compileSchemaWriter(schema: z.ZodType, route = { method: 'GET', url: '/', httpStatus: '200' }): (body: unknown) => string {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return compileJsonSchema({ schema: json, ...route });
}
