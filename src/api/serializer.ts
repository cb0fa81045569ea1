import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

const compileJsonSchema = SerializerSelector()({}, {});

/**
 * Writes answers with Fastify's own compiled serializer (fast-json-stringify), given the JSON
 * Schema of each zod response schema. fastify-type-provider-zod's serializer instead runs the
 * zod schema over every answer and then JSON.stringify: on a 20-sound search page that costs
 * several times as much (bench/serializer.ts, numbers in BENCHMARKS.md), and serializing is
 * already a sixth of the server's time on search. A field the schema does not declare never
 * reaches a client either way.
 */
export const compileSerializer: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url, httpStatus }) => {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return compileJsonSchema({ schema: json, method, url, httpStatus: httpStatus ?? '200' });
};
