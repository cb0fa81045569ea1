import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

/**
 * How every answer of an endpoint is written: by fast-json-stringify, Fastify's serializer, given
 * the JSON Schema of the answer's zod schema, as the OpenAPI document publishes it but for
 * `additionalProperties: false` and URLs (dropUnlisted). It writes the fields the schema lists and
 * no others, at any depth, so a field a handler or a domain object carries beyond them (a stored
 * sound's `fileKey`) never reaches a client.
 *
 * The answer goes out as bytes, encoded once here: fast-json-stringify builds it as a string of
 * many small joined pieces, which the socket would otherwise join and encode later, and handing
 * Fastify that string served fewer requests a second than the Buffer (bench/pairs.ts). Fastify
 * sends a Buffer as it is, with its length as content-length.
 */
export const compileSerializer: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  const write = compileSchemaWriter(schema);
  return ((body: unknown) => Buffer.from(write(body))) as unknown as (body: unknown) => string;
};

/** fast-json-stringify for a zod schema: writes exactly the fields the schema declares. */
export function compileSchemaWriter(schema: z.ZodType): (body: unknown) => string {
  const options = { io: 'output', unrepresentable: 'any', override: dropUnlisted } as const;
  const json = z.toJSONSchema(schema, options) as Record<string, unknown>;
  delete json.$schema;
  // Debug mode hands back the generated code with the helpers it calls, which restore() joins
  // again (fast-json-stringify's README), so that numbers are written by numberText. Its ajv, which
  // picks an anyOf's branch, is told that `unsafe` (a URL written unescaped) holds for any string.
  const compiled = fastJson(json, { mode: 'debug', ajv: { formats: { unsafe: true } } }) as unknown as Compiled;
  compiled.serializer.asNumber = numberText;
  return fastJson.restore(compiled as never) as unknown as (body: unknown) => string;
}

interface Compiled {
  code: string;
  serializer: { asNumber: (value: unknown) => string };
}

/**
 * A number as fast-json-stringify writes it (`'' + number`; NaN refused, an infinity null), made
 * by JSON.stringify, which gives the same text. `'' + number` keeps each new string in V8's cache
 * of numbers' strings, where a young collection finds it alive and moves it to the old generation:
 * under load the durations, timings and loudnesses of every answer filled it, and its full
 * collections made the tail (node --trace-gc; a sampling heap profile of what reached the old
 * generation). JSON.stringify writes a number without that cache.
 */
function numberText(value: unknown): string {
  const number = Number(value);
  if (Number.isNaN(number)) throw new Error(`The value "${String(value)}" cannot be converted to a number.`);
  return Number.isFinite(number) ? JSON.stringify(number) : 'null';
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
