import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Whether an answer is one the OpenAPI document describes: the request's method and path name an
 * operation, the answer's status is one that operation lists, its content type one that status
 * lists, and a JSON body validates against the schema listed for it (ajv, JSON Schema 2020-12,
 * with formats). openapi-answers.ts applies it to every answer the suite receives.
 */

interface DocumentedResponse {
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  operationId?: string;
  responses?: Record<string, DocumentedResponse>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * Paths the document does not describe, on purpose: they are not the API's operations. Checked
 * by the first segment, or a prefix ending in a slash.
 */
export const UNDOCUMENTED_PATHS = [
  '/', // a redirect to the dashboard
  '/healthz',
  '/readyz',
  '/metrics', // probes and Prometheus (operator contract)
  '/mcp', // JSON-RPC; its tools publish their own schemas, which the MCP SDK client checks
  '/media/', // signed files and packs
  '/dashboard',
  '/docs', // web pages
  '/openapi.json',
  '/openapi.yaml', // the document itself
];

/** One answer as received. */
export interface ReceivedAnswer {
  method: string;
  /** Path and query, as requested. */
  url: string;
  status: number;
  /** The Content-Type header, if any. */
  contentType: string | null;
  /** The body's text; undefined when it was not read (not JSON, or a stream), and is not checked. */
  body: string | undefined;
}

/** The answers of one document, its validators compiled once. */
export class AnswerChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  /** The document's paths as patterns, literal ones first (/sounds/popular before /sounds/{id}). */
  private readonly paths: Array<{ path: string; pattern: RegExp }>;

  constructor(private readonly document: OpenApiDocument) {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(document as object, DOCUMENT_ID);
    this.paths = Object.keys(document.paths)
      .sort((a, b) => a.split('{').length - b.split('{').length)
      .map((path) => ({ path, pattern: patternOf(path) }));
  }

  /** What is wrong with the answer, or null when it is one the document describes. */
  mismatch(answer: ReceivedAnswer): string | null {
    // The path as sent, as the router reads it: `/sounds/..` is the sound `..`, not `/`.
    const pathname = answer.url.split('?')[0]!;
    const method = answer.method.toUpperCase();
    const mediaType = mediaTypeOf(answer.contentType);
    const said = `${method} ${answer.url} answered ${answer.status} ${answer.contentType ?? '(no content type)'}`;
    // A CORS preflight is answered by @fastify/cors for every path: not an operation.
    if (method === 'OPTIONS' || isUndocumentedPath(pathname)) return null;
    const path = this.paths.find(({ pattern }) => pattern.test(pathname))?.path;
    // HEAD is GET without its body (Fastify adds it to every GET route).
    const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
    const operation = path === undefined ? undefined : this.document.paths[path]![verb];
    if (path === undefined || operation === undefined) {
      // Asking for an operation that does not exist is answered 404 in the error shape.
      if (answer.status === 404 && mediaType !== undefined && isJson(mediaType)) {
        return this.bodyMismatch(said, '#/components/schemas/Error', answer);
      }
      return `${said}: the OpenAPI document describes no such operation`;
    }
    const name = `${operation.operationId ?? `${method} ${path}`} (${method} ${path})`;
    const responses = operation.responses ?? {};
    const status = String(answer.status);
    const statusKey = [status, `${status[0]}XX`, 'default'].find((key) => key in responses);
    if (statusKey === undefined) {
      return `${said}: ${name} lists no ${status} answer (it lists ${Object.keys(responses).join(', ')})`;
    }
    if (method === 'HEAD' || answer.status === 204 || answer.status === 304) return null;
    const content = responses[statusKey]!.content ?? {};
    if (mediaType === undefined || !(mediaType in content)) {
      const documented = Object.keys(content).join(', ') || 'having no body';
      return `${said}: ${name}'s ${statusKey} answer is documented as ${documented}`;
    }
    if (!isJson(mediaType) || content[mediaType]!.schema === undefined) return null;
    const pointer = ['paths', path, verb, 'responses', statusKey, 'content', mediaType, 'schema']
      .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/');
    return this.bodyMismatch(`${said}: not ${name}'s documented ${statusKey} answer`, `#/${pointer}`, answer);
  }

  private bodyMismatch(said: string, pointer: string, answer: ReceivedAnswer): string | null {
    if (answer.body === undefined) return null;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${said}: its body is not JSON: ${answer.body.slice(0, 200)}`;
    }
    let validate = this.validators.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    if (validate(body)) return null;
    return `${said}\n${errorsText(validate.errors ?? [])}\nbody: ${answer.body.slice(0, 600)}`;
  }
}

const DOCUMENT_ID = 'https://sound-catalog.invalid/openapi.json';

function isUndocumentedPath(pathname: string): boolean {
  return UNDOCUMENTED_PATHS.some((path) => {
    if (pathname === path) return true;
    if (path === '/') return false;
    return pathname.startsWith(path.endsWith('/') ? path : `${path}/`);
  });
}

/** `application/json` of `application/json; charset=utf-8`. */
export function mediaTypeOf(contentType: string | null): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase();
}

export function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** `/api/v1/sounds/{id}` as a pattern of the paths the router gives it (`/api/v1/sounds/` too, id ''). */
function patternOf(path: string): RegExp {
  const literals = path.split(/\{[^}]+\}/).map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literals.join('[^/]*')}$`);
}

/** ajv's errors, one a line, the most telling first: an anyOf's own line comes after its branches'. */
function errorsText(errors: ErrorObject[]): string {
  return errors
    .slice(0, 8)
    .map(
      ({ instancePath, message, keyword, params, schemaPath }) =>
        `  ${instancePath || '(body)'} ${message ?? keyword} ${JSON.stringify(params)} (schema ${schemaPath})`,
    )
    .join('\n');
}

const checkersByDocument = new Map<string, AnswerChecker>();

/** The checker of a document, compiled once per distinct document (servers differ only in `servers`). */
export function checkerOf(document: OpenApiDocument): AnswerChecker {
  const text = JSON.stringify({ paths: document.paths, components: document.components });
  let checker = checkersByDocument.get(text);
  if (checker === undefined) {
    checker = new AnswerChecker(document);
    checkersByDocument.set(text, checker);
  }
  return checker;
}
