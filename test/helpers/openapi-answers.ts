import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Every answer the suite receives from a Sound Catalog server is checked against the OpenAPI
 * document that server publishes (operator contract: every answer, of every operation, validates
 * against the served document). The test server helpers register each server they start
 * (`checkAnswersOf`); from then on the suite's fetch() checks each answer from it as it arrives:
 * the request's method and path name an operation of the document, the answer's status is one
 * that operation lists, its content type one that status lists, and a JSON body validates (ajv,
 * JSON Schema 2020-12, with formats). A mismatch rejects that fetch with an error naming the
 * request, the operation, the status and ajv's errors, so the test that received the answer fails
 * there; it is also written to standard error and fails the test file at exit, should a test have
 * caught the rejection.
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
  '/healthz', '/readyz', '/metrics', // probes and Prometheus (operator contract)
  '/mcp', // JSON-RPC; its tools publish their own schemas, which the MCP SDK client checks
  '/media/', // signed files and packs
  '/dashboard', '/docs', // web pages
  '/openapi.json', '/openapi.yaml', // the document itself
];

/** One answer as received. */
export interface ReceivedAnswer {
  method: string;
  /** Path and query, as requested. */
  url: string;
  status: number;
  /** The Content-Type header, if any. */
  contentType: string | null;
  /** The body's text; undefined when it was not read (not JSON, or no body). */
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
      .map((path) => ({ path, pattern: new RegExp(`^${path.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}$`) }));
  }

  /** What is wrong with the answer, or null when it is one the document describes. */
  mismatch(answer: ReceivedAnswer): string | null {
    const { pathname } = new URL(answer.url, 'http://localhost');
    const method = answer.method.toUpperCase();
    const said = `${method} ${answer.url} answered ${answer.status} ${answer.contentType ?? '(no content type)'}`;
    // A CORS preflight is answered by @fastify/cors for every path: not an operation.
    if (method === 'OPTIONS' || isUndocumentedPath(pathname)) return null;
    const path = this.paths.find(({ pattern }) => pattern.test(pathname))?.path;
    // HEAD is GET without its body (Fastify adds it to every GET route).
    const operation = path === undefined ? undefined : this.document.paths[path]![method === 'HEAD' ? 'get' : method.toLowerCase()];
    if (operation === undefined) {
      // Asking for an operation that does not exist is answered 404 in the error shape.
      if (answer.status === 404) return this.bodyMismatch(said, '#/components/schemas/Error', answer);
      return `${said}: the OpenAPI document describes no such operation`;
    }
    const name = `${operation.operationId ?? `${method} ${path}`} (${method} ${path})`;
    const responses = operation.responses ?? {};
    const statusKey = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find((key) => key in responses);
    if (statusKey === undefined) return `${said}: ${name} lists no ${answer.status} answer (it lists ${Object.keys(responses).join(', ')})`;
    const hasBody = method !== 'HEAD' && answer.status !== 204 && answer.status !== 304;
    if (!hasBody) return null;
    const content = responses[statusKey]!.content ?? {};
    const mediaType = answer.contentType?.split(';')[0]!.trim().toLowerCase();
    if (mediaType === undefined || !(mediaType in content)) {
      return `${said}: ${name}'s ${statusKey} answer is documented as ${Object.keys(content).join(', ') || 'having no body'}`;
    }
    if (!isJson(mediaType) || content[mediaType]!.schema === undefined) return null;
    const pointer = ['paths', path!, method === 'HEAD' ? 'get' : method.toLowerCase(), 'responses', statusKey, 'content', mediaType, 'schema']
      .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
    return this.bodyMismatch(`${said}: not ${name}'s documented ${statusKey} answer`, `#/${pointer}`, answer);
  }

  private bodyMismatch(said: string, pointer: string, answer: ReceivedAnswer): string | null {
    if (answer.body === undefined) return `${said}: its body is not JSON`;
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
  return UNDOCUMENTED_PATHS.some((path) =>
    path.endsWith('/') ? pathname === path || (path !== '/' && pathname.startsWith(path)) : pathname === path || pathname.startsWith(`${path}/`));
}

function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** ajv's errors, one a line, the most telling first: an anyOf's own line comes after its branches'. */
function errorsText(errors: ErrorObject[]): string {
  return errors.slice(0, 8).map((error) =>
    `  ${error.instancePath || '(body)'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)} (schema ${error.schemaPath})`).join('\n');
}

/** Checkers by origin; one per document text, since servers of one build publish the same one but for `servers`. */
const checkersByOrigin = new Map<string, Promise<AnswerChecker>>();
const checkersByDocument = new Map<string, AnswerChecker>();
const mismatches: string[] = [];
const fetchAsGiven = globalThis.fetch;

/** The checker of a document (compiled once per distinct document). */
export function checkerOf(document: OpenApiDocument): AnswerChecker {
  const text = JSON.stringify({ paths: document.paths, components: document.components });
  let checker = checkersByDocument.get(text);
  if (checker === undefined) {
    checker = new AnswerChecker(document);
    checkersByDocument.set(text, checker);
  }
  return checker;
}

/**
 * Checks every answer the suite's fetch() receives from the server at `url` from now on, against
 * the document it serves: read in process (`document`) or from its /openapi.json, at once.
 */
export async function checkAnswersOf(url: string, document?: () => unknown): Promise<void> {
  installCheckedFetch();
  const served = document
    ? Promise.resolve(document() as OpenApiDocument)
    : fetchAsGiven(new URL('/openapi.json', url)).then((response) => response.json() as Promise<OpenApiDocument>);
  const checker = served.then(checkerOf);
  checkersByOrigin.set(new URL(url).origin, checker);
  await checker;
}

/** The mismatches received so far, forgotten: for a test that receives a wrong answer on purpose. */
export function takeMismatches(): string[] {
  return mismatches.splice(0);
}

/** Stops checking the answers of a server that has stopped (its port may serve something else next). */
export function stopCheckingAnswersOf(url: string): void {
  checkersByOrigin.delete(new URL(url).origin);
}

let installed = false;

function installCheckedFetch(): void {
  if (installed) return;
  installed = true;
  globalThis.fetch = checkedFetch;
  process.on('exit', () => {
    if (mismatches.length === 0) return;
    process.stderr.write(`${mismatches.length} answer(s) did not match the served OpenAPI document; the first:\n${mismatches[0]}\n`);
    process.exitCode = 1;
  });
}

async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetchAsGiven(input, init);
  const url = new URL(response.url || (input instanceof Request ? input.url : String(input)));
  const checker = checkersByOrigin.get(url.origin);
  if (checker === undefined) return response;
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const contentType = response.headers.get('content-type');
  const mediaType = contentType?.split(';')[0]!.trim().toLowerCase();
  // A JSON body is read from a copy; the caller reads the answer as if nothing had. One whose
  // reading fails (the caller aborted it) was not received, and is not checked.
  let body: string | undefined;
  if (mediaType !== undefined && isJson(mediaType) && response.body !== null) {
    try {
      body = await response.clone().text();
    } catch {
      return response;
    }
  }
  const mismatch = (await checker).mismatch({ method, url: url.pathname + url.search, status: response.status, contentType, body });
  if (mismatch === null) return response;
  mismatches.push(mismatch);
  process.stderr.write(`OpenAPI mismatch: ${mismatch}\n`);
  throw new Error(`The answer does not match the served OpenAPI document: ${mismatch}`);
}
