import type { FastifyInstance } from 'fastify';

/** Dashboard forms are small: an email, a password, a key name. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * Fastify 5 parses no HTML forms by default. This parser is added inside the dashboard's own
 * plugin, so the API routes keep refusing form bodies. Repeated names keep their last value.
 */
export function addFormBodyParser(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string> = Object.create(null);
      for (const [name, value] of new URLSearchParams(body as string)) fields[name] = value;
      done(null, fields);
    },
  );
}
