import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

// `unsafe` (a URL written unescaped, dropUnlisted) is fast-json-stringify's; its ajv, which picks
// an anyOf's branch, is told the format holds for any string.
const compileJsonSchema = SerializerSelector()({}, { ajv: { formats: { unsafe: true } } });

/**
 * How every answer of an endpoint is written: by Fastify's own compiled serializer,
 * fast-json-stringify, given the JSON Schema of the answer's zod schema, as the OpenAPI document
 * publishes it but for `additionalProperties: false` and URLs (dropUnlisted). It writes the fields the
 * schema lists and no others, at any depth, so a field a handler or a domain object carries beyond
 * them (a stored sound's `fileKey`) never reaches a client.
 *
 * The answer goes out as bytes, encoded once here. fast-json-stringify builds it as a string of
 * many small joined pieces; handed to Fastify as a string, those pieces lived until the socket took
 * the answer, and under load enough of them outlived young-generation collections to fill the old
 * generation (node --trace-gc under bench/pairs.ts). As a Buffer they die at once; Fastify sends it
 * as it is, with its length as content-length.
 */
export const compileSerializer: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url, httpStatus }) => {
  const write = compileSchemaWriter(schema, { method, url, httpStatus: httpStatus ?? '200' });
  return ((body: unknown) => Buffer.from(write(body))) as unknown as (body: unknown) => string;
};

/** fast-json-stringify for a zod schema: writes exactly the fields the schema declares. */
export function compileSchemaWriter(
  schema: z.ZodType,
  route = { method: 'GET', url: '/', httpStatus: '200' },
): (body: unknown) => string {
  const options = { io: 'output', unrepresentable: 'any', override: dropUnlisted } as const;
  const json = z.toJSONSchema(schema, options) as Record<string, unknown>;
  delete json.$schema;
  return compileJsonSchema({ schema: json, ...route });
}

/**
 * An object's unlisted fields are dropped, not refused. fast-json-stringify writes only the listed
 * fields of an object, but in an anyOf (a pagination with or without next_cursor) it first asks
 * ajv which branch the value matches, and `additionalProperties: false` would turn one field too
 * many into no match at all, a 500. Without it the first branch that matches is written, so a
 * union lists its wider branch first (shapes/schemas.ts).
 *
 * A URL (`format: uri`) is written as it is, unescaped: each one an answer carries is made by the
 * service from the public base URL, which config.ts refuses if it holds a character JSON escapes,
 * ids through encodeURIComponent, and parameters in their one canonical spelling. Escaping read
 * every character of a sound's two long URLs again: docs/performance.md gives what it cost.
 */
function dropUnlisted({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  if (jsonSchema.format === 'uri') jsonSchema.format = 'unsafe';
  nullableInPlace(jsonSchema);
}

/**
 * A value or null (`anyOf: [X, { type: "null" }]`, as zod writes `.nullable()`) becomes X marked
 * `nullable`, which fast-json-stringify writes directly: an anyOf is written by asking ajv which
 * branch each value matches first, once per sound and field of every list answer.
 */
function nullableInPlace(jsonSchema: Record<string, unknown>): void {
  const branches = jsonSchema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return;
  const isNull = (branch: unknown) => (branch as { type?: unknown }).type === 'null';
  const value = branches.find((branch) => !isNull(branch)) as Record<string, unknown> | undefined;
  if (value === undefined || !branches.some(isNull) || typeof value.type !== 'string') return;
  if (value.type !== 'object' && value.type !== 'string' && value.type !== 'number' && value.type !== 'integer') return;
  delete jsonSchema.anyOf;
  Object.assign(jsonSchema, value, { nullable: true });
}
