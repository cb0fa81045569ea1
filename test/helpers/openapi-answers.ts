import type { FastifyInstance } from 'fastify';
import { checkerOf, isJson, mediaTypeOf, type AnswerChecker, type OpenApiDocument } from './openapi-checker.ts';

/**
 * Every answer the suite receives from a Sound Catalog server is checked against the OpenAPI
 * document that server publishes (operator contract: every answer, of every operation, validates
 * against the served document; openapi-checker.ts says what is checked). The server helpers
 * register each server they start: one in process is checked as it sends each answer, whatever
 * the client (fetch, node:http, inject); a `serve` process, as the suite's fetch() receives its
 * answers. A mismatch is written to standard error and fails the test file at exit; received by
 * fetch, it also rejects that fetch with the request, the operation, the status and ajv's
 * errors, so the test that asked fails there.
 */

/** Set on an answer, in process, that did not match: the number of its mismatch. */
const MISMATCH_HEADER = 'x-test-openapi-mismatch';

/** Every mismatch so far, in order, and how many of them tests took back (takeMismatches). */
const refused: string[] = [];
let forgiven = 0;
/** The checkers of `serve` processes, by origin. */
const checkersByOrigin = new Map<string, Promise<AnswerChecker>>();
const fetchAsGiven = globalThis.fetch;

/** Checks every answer the app sends, against the document it serves (or `document`). Before it listens. */
export function checkAnswersIn(app: FastifyInstance, document: () => unknown = () => app.swagger()): void {
  install();
  let checker: AnswerChecker | undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    checker ??= checkerOf(document() as OpenApiDocument);
    const contentType = reply.getHeader('content-type');
    // A JSON answer is a string here; a stream (a file) is not read.
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : undefined;
    const mismatch = checker.mismatch({
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      contentType: contentType === undefined ? null : String(contentType),
      body,
    });
    if (mismatch !== null) reply.header(MISMATCH_HEADER, String(refuse(mismatch)));
    return payload;
  });
}

/** Checks every answer the suite's fetch() receives from the server at `url`, against its /openapi.json. */
export async function checkAnswersOf(url: string, document?: () => unknown): Promise<void> {
  install();
  const served = document
    ? Promise.resolve(document() as OpenApiDocument)
    : fetchAsGiven(new URL('/openapi.json', url)).then((response) => response.json() as Promise<OpenApiDocument>);
  const checker = served.then(checkerOf);
  checkersByOrigin.set(new URL(url).origin, checker);
  await checker;
}

/** Stops checking the answers of a server that has stopped (its port may serve something else next). */
export function stopCheckingAnswersOf(url: string): void {
  checkersByOrigin.delete(new URL(url).origin);
}

/** The mismatches not yet taken, taken back: for a test that receives wrong answers on purpose. */
export function takeMismatches(): string[] {
  const taken = refused.slice(forgiven);
  forgiven = refused.length;
  return taken;
}

function refuse(mismatch: string): number {
  process.stderr.write(`OpenAPI mismatch: ${mismatch}\n`);
  return refused.push(mismatch) - 1;
}

function mismatchError(mismatch: string): Error {
  return new Error(`The answer does not match the served OpenAPI document: ${mismatch}`);
}

let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  globalThis.fetch = checkedFetch;
  process.on('exit', () => {
    if (refused.length === forgiven) return;
    const count = refused.length - forgiven;
    process.stderr.write(
      `${count} answer(s) did not match the served OpenAPI document, the first:\n${refused[forgiven]}\n`,
    );
    process.exitCode = 1;
  });
}

async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetchAsGiven(input, init);
  const number = response.headers.get(MISMATCH_HEADER);
  if (number !== null) throw mismatchError(refused[Number(number)] ?? `mismatch ${number}`);
  const url = new URL(response.url || (input instanceof Request ? input.url : String(input)));
  const checker = checkersByOrigin.get(url.origin);
  if (checker === undefined) return response;
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const contentType = response.headers.get('content-type');
  const mediaType = mediaTypeOf(contentType);
  // A JSON body is read from a copy; the caller reads the answer as if nothing had. One whose
  // reading fails (the caller aborted it) was not received, and is not checked.
  let body: string | undefined;
  if (mediaType !== undefined && isJson(mediaType)) {
    try {
      body = await response.clone().text();
    } catch {
      return response;
    }
  }
  const answer = { method, url: url.pathname + url.search, status: response.status, contentType, body };
  const mismatch = (await checker).mismatch(answer);
  if (mismatch === null) return response;
  refuse(mismatch);
  throw mismatchError(mismatch);
}
