import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';

/** Dashboard forms are small: an email, a password, a key name. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * Fastify 5 parses no HTML forms by default: @fastify/formbody does, registered inside the
 * dashboard's own plugin so the API routes keep refusing form bodies. Repeated names keep their
 * last value (the plugin's default would make them arrays, which no form here expects).
 */
export function addFormBodyParser(scope: FastifyInstance): void {
  scope.register(formbody, { bodyLimit: FORM_BODY_LIMIT, parser: lastValueOfEach });
}

function lastValueOfEach(body: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(body)) fields[name] = value;
  return fields;
}
