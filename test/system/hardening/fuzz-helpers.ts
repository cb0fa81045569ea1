import assert from 'node:assert/strict';
import { connect } from 'node:net';
import fc from 'fast-check';

/**
 * Shared pieces of the property-based fuzz tests: a raw HTTP/1.1 client that sends bytes fetch()
 * refuses (NUL and non-UTF-8 bytes in the path, repeated parameters, many and huge headers), the
 * checks every answer must pass, and the generators of hostile text.
 */

export interface RawRequest {
  method?: string;
  /** The request target exactly as sent: path and query, as a string (latin1, byte for byte) or bytes. */
  target: string | Buffer;
  /** In order, repeats allowed. Host and Connection are added unless given. */
  headers?: Array<[string, string | Buffer]>;
  /** Text goes out as UTF-8; bytes as they are. */
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as UTF-8 text; `bytes` holds it exactly. */
  body: string;
  bytes: Buffer;
  /** Bytes of the request head (request line and headers) that went out. */
  headBytes: number;
}

/** Node's default limit on a request head (--max-http-header-size): past it, the parser answers before the app. */
export const NODE_HEADER_LIMIT = 16 * 1024;

/**
 * Protocol-level answers of Node's HTTP parser (and Fastify's client-error handler) to a request
 * head past NODE_HEADER_LIMIT: no endpoint ever sees such a request, so its listed statuses do not
 * apply. Allowed only for over-size requests; every ordinary-size request is held to the endpoint's list.
 */
export const OVERSIZE_STATUSES = [400, 413, 414, 431];

const asBuffer = (value: string | Buffer) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : value);

/**
 * Sends one request over a fresh TCP connection and reads the answer until the server closes it.
 * The target and headers given as strings go out as latin1, so '\u00ff' is the single byte 0xFF:
 * exactly the bytes asked for.
 */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const { hostname, port, host } = new URL(baseUrl);
  const headers = request.headers ?? [];
  const has = (name: string) => headers.some(([given]) => given.toLowerCase() === name);
  const lines: Buffer[] = [
    Buffer.from(`${request.method ?? 'GET'} `),
    asBuffer(request.target),
    Buffer.from(' HTTP/1.1\r\n'),
  ];
  if (!has('host')) lines.push(Buffer.from(`Host: ${host}\r\n`));
  for (const [name, value] of headers)
    lines.push(Buffer.from(`${name}: `, 'latin1'), asBuffer(value), Buffer.from('\r\n'));
  if (!has('connection')) lines.push(Buffer.from('Connection: close\r\n'));
  // A body given as text is UTF-8, as JSON and forms are; give bytes for anything else.
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body as string | Buffer);
  if (request.body !== undefined && !has('content-length'))
    lines.push(Buffer.from(`Content-Length: ${body.length}\r\n`));
  lines.push(Buffer.from('\r\n'));
  const head = Buffer.concat(lines);

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    socket.setTimeout(30_000, () => socket.destroy(new Error('no answer within 30 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    const finish = (error?: Error) => {
      const received = Buffer.concat(chunks);
      // The server may answer and close while a huge request is still being written (EPIPE,
      // ECONNRESET on our side): what it answered is what counts.
      if (received.length > 0) {
        try {
          resolve({ ...parseResponse(received), headBytes: head.length });
        } catch (parseError) {
          reject(parseError);
        }
      } else {
        reject(error ?? new Error('the server closed the connection without an answer'));
      }
    };
    socket.on('error', (error) => finish(error));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.write(Buffer.concat([head, body]), () => undefined);
  });
}

/** The first response in the bytes: status, headers (lower-case names, repeats joined) and the body as text. */
function parseResponse(bytes: Buffer): Omit<RawResponse, 'headBytes'> {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`not an HTTP response: ${JSON.stringify(bytes.subarray(0, 200).toString('latin1'))}`);
  const [statusLine, ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`bad status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let body = bytes.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, body: body.toString('utf8'), bytes: body };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Signs of internals in a body: stack frames, source or install paths, a generic crash message. */
const LEAKS: Array<[string, RegExp]> = [
  ['a stack frame', /^ {4}at \S/m],
  ['a stack frame', /\bat (?:\S+ \()?(?:file:\/\/|node:|\/)[^\s()]*:\d+(?::\d+)?/],
  ['a source position', /\.[cm]?[jt]s:\d+/],
  ['the project folder', new RegExp(escapeRegExp(process.cwd()))],
  ['a /work/ path', /\/work\//],
  ['node_modules', /node_modules/],
  ['a src/ path', /\bsrc\/[\w./-]+\.[jt]s\b/],
  ['an internal error message', /internal server error/i],
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What in this body looks like internals leaking out, or null. */
export function leakIn(body: string): string | null {
  for (const [what, pattern] of LEAKS) {
    const match = pattern.exec(body);
    if (match) return `${what}: ${JSON.stringify(body.slice(Math.max(0, match.index - 60), match.index + 80))}`;
  }
  return null;
}

/** Bytes a terminal would hide (controls, DEL, 0x80-0xFF) as \xNN. */
const printable = (text: string) =>
  text.replace(/[\x00-\x1f\x7f-\xff]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** A short, printable description of a request for failure messages. */
export function describeRequest(request: RawRequest): string {
  const target = printable(asBuffer(request.target).toString('latin1'));
  const headers = (request.headers ?? []).map(
    ([name, value]) =>
      `${name}: ` +
      (asBuffer(value).length > 80
        ? `(${asBuffer(value).length} bytes)`
        : printable(asBuffer(value).toString('latin1'))),
  );
  return JSON.stringify({
    method: request.method ?? 'GET',
    target: target.length > 300 ? `${target.slice(0, 300)}… (${target.length} bytes)` : target,
    headers: headers.slice(0, 12),
    headerCount: headers.length,
  });
}

/**
 * The checks every fuzzed answer must pass: a status in `allowed` (or, for a request head over
 * NODE_HEADER_LIMIT, one of the parser's OVERSIZE_STATUSES), never a 5xx, and a body with no
 * stack trace, internal path or "Internal server error".
 */
export function assertClean(response: RawResponse, allowed: readonly number[], context: string): void {
  const oversize = response.headBytes > NODE_HEADER_LIMIT;
  const statuses = oversize ? [...allowed, ...OVERSIZE_STATUSES] : allowed;
  const where = `${context} -> ${response.status} ${response.body.slice(0, 300)}`;
  assert.ok(response.status < 500, `a 5xx answer: ${where}`);
  assert.ok(statuses.includes(response.status), `status not in [${statuses.join(', ')}]: ${where}`);
  const leak = leakIn(response.body);
  assert.equal(leak, null, `internals in the body (${leak}): ${where}`);
}

/** An error answer of the API: JSON `{ error: string }`. */
export function assertJsonError(response: RawResponse, context: string): void {
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    assert.fail(`not JSON: ${context} -> ${response.status} ${response.body.slice(0, 200)}`);
  }
  assert.equal(
    typeof (body as { error?: unknown }).error,
    'string',
    `no error string: ${context} -> ${response.body.slice(0, 200)}`,
  );
}

// --- Generators -----------------------------------------------------------------------------

/** Percent-escapes that decode to trouble: NUL, CR LF, separators, overlong and invalid UTF-8, lone surrogates. */
const NASTY_ESCAPES = [
  '%00',
  '%0D%0A',
  '%0A',
  '%09',
  '%20',
  '%25',
  '%26',
  '%3D',
  '%3F',
  '%23',
  '%2F',
  '%5C',
  '%2E%2E%2F',
  '%22',
  '%27',
  '%3C',
  '%3E',
  '%C0%AF',
  '%C0%80',
  '%E0%80%AF',
  '%FF',
  '%FE%FF',
  '%80',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%EF%BB%BF',
  '%F0%9F%98%80',
  '%C3%A9',
];
/** Broken escapes: a lone %, one hex digit, non-hex digits, at the end of a value or not. */
const BROKEN_ESCAPES = ['%', '%%', '%z', '%zz', '%g0', '%0', '%0g', '%%41', '%u0041', '%C3', '%E2%82'];
/** Words that mean something to some parser on the way: query syntax, numbers, prototype keys. */
const LOADED_WORDS = [
  'NEAR',
  'AND',
  'OR',
  'NOT',
  '*',
  '"',
  "'",
  '(',
  ')',
  '-',
  '^',
  ':',
  ';',
  '--',
  '/*',
  '\\',
  '[]',
  '[0]',
  '{}',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0x10',
  '1e308',
  '1e-308',
  '9007199254740993',
  '99999999999999999999',
  '1.5',
  '-1',
  '0',
  ' 1 ',
  '1,2',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'SFX',
  'music',
  'downloads',
  'relevance',
  'asc',
  'desc',
  'true',
];

/** Characters a URL carries unescaped, plus the ones a query treats specially. */
const urlSafe = fc.constantFrom(..."abcXYZ019-._~!$'()*+,;=:@/?".split(''));

/**
 * One piece of a query value as it goes on the wire (already escaped, or deliberately not):
 * ordinary text, nasty and broken escapes, loaded words, escaped arbitrary code points.
 */
const wirePiece: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: urlSafe, maxLength: 8 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_ESCAPES) },
  { weight: 2, arbitrary: fc.constantFrom(...BROKEN_ESCAPES) },
  { weight: 2, arbitrary: fc.constantFrom(...LOADED_WORDS).map((word) => encodeURIComponent(word)) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }).map((text) => encodeURIComponent(text)) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`),
  },
);

/** A value on the wire, mostly short, sometimes long (up to a few KiB: still an ordinary-size request). */
export const wireValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.array(wirePiece, { maxLength: 6 }).map((pieces) => pieces.join('')) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(wirePiece, fc.integer({ min: 100, max: 4000 }))
      .map(([piece, times]) => piece.repeat(Math.ceil(times / Math.max(1, piece.length)))),
  },
);

/**
 * A query string built from these parameter names (and odd ones): each used zero or more times,
 * with or without `=`, joined by `&` or `;` or doubled `&&`.
 */
export function wireQuery(names: readonly string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...names) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '__proto__',
        'constructor',
        'a[b]',
        `${names[0] ?? 'q'}[]`,
        '',
        '%00',
        '%zz',
        'x'.repeat(300),
      ),
    },
    { weight: 1, arbitrary: fc.array(wirePiece, { maxLength: 3 }).map((pieces) => pieces.join('')) },
  );
  const pair = fc
    .tuple(name, fc.option(wireValue, { nil: undefined }))
    .map(([key, value]) => (value === undefined ? key : `${key}=${value}`));
  return fc
    .tuple(fc.array(pair, { maxLength: 8 }), fc.constantFrom('&', '&&', ';'))
    .map(([pairs, separator]) => pairs.join(separator));
}

/**
 * A path segment as sent, escaped or deliberately not. Never a raw control, space or byte over
 * 0x7E: HTTP/1.1 forbids those in a request target, and Node's parser refuses such a request line
 * with 400 before any route (invalidTargetByte, for the tests of that).
 */
export const wireSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(wirePiece, { minLength: 1, maxLength: 5 })
      .map((pieces) => pieces.join('').replaceAll('?', '%3F').replaceAll('/', '%2F')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '.',
      '..',
      '%2e%2e',
      '%2E',
      '~',
      '%7E',
      'x'.repeat(199),
      'x'.repeat(201),
      'x'.repeat(3000),
    ),
  },
);

/**
 * A byte HTTP/1.1 forbids in a request target: NUL and the other controls, space, DEL, and every non-ASCII (non-UTF-8
 * on its own) byte.
 */
export const invalidTargetByte: fc.Arbitrary<string> = fc
  .oneof(fc.integer({ min: 0, max: 0x20 }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0xff }))
  .map((byte) => String.fromCharCode(byte));

/** Header names the fuzz may set freely: everything but the HTTP framing ones the parser itself acts on. */
const FRAMING_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'expect',
  'te',
  'keep-alive',
  'trailer',
]);

const headerName = fc
  .oneof(
    fc.constantFrom(
      'x-api-key',
      'X-API-KEY',
      'authorization',
      'cookie',
      'accept',
      'accept-encoding',
      'accept-language',
      'content-type',
      'range',
      'if-none-match',
      'if-modified-since',
      'if-range',
      'x-request-id',
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
      'forwarded',
      'origin',
      'referer',
      'user-agent',
      'mcp-session-id',
      'mcp-protocol-version',
      'last-event-id',
    ),
    fc.string({
      unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-_!#$%&'*+.^`|~".split('')),
      minLength: 1,
      maxLength: 20,
    }),
  )
  .filter((name) => !FRAMING_HEADERS.has(name.toLowerCase()));

/** A header value that HTTP allows: visible ASCII, spaces and tabs inside, obs-text bytes 0x80-0xFF (latin1). */
const headerValue = fc
  .oneof(
    {
      weight: 4,
      arbitrary: fc.string({
        unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
        maxLength: 40,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        ...LOADED_WORDS,
        'sc_',
        `sc_${'A'.repeat(40)}`,
        'Bearer sc_x',
        'bytes=0-',
        'bytes=-1',
        'bytes=1-0',
        'bytes=0-1,2-3',
        '*/*',
        'application/json',
        'W/"x"',
        'x'.repeat(4000),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 20 })
        .map((bytes) => String.fromCharCode(...bytes)),
    },
  )
  .map((value) => value.trim());

/** Headers of an ordinary-size request: a few, some repeated. */
export const fuzzHeaders: fc.Arbitrary<Array<[string, string]>> = fc.array(fc.tuple(headerName, headerValue), {
  maxLength: 8,
});

/** Many headers (hundreds to a few thousand), each small: some heads stay under the limit, some pass it. */
export const manyHeaders: fc.Arbitrary<Array<[string, string]>> = fc
  .integer({ min: 100, max: 2500 })
  .map((count) => Array.from({ length: count }, (_, i) => [`x-fuzz-${i % 50}`, `v${i}`] as [string, string]));

/** One huge header (up to 64 KiB): under or over the parser's 16 KiB limit. */
export const hugeHeader: fc.Arbitrary<Array<[string, string]>> = fc
  .tuple(headerName, fc.integer({ min: 1000, max: 64 * 1024 }))
  .map(([name, size]) => [[name, 'x'.repeat(size)]]);

/** Runs of a property: enough to find things, few enough to keep each file near a minute on a shared machine. */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

/**
 * fc.assert's settings: `numRuns` runs (FUZZ_RUNS scales them all), and the failed assertion's own
 * message in the report beside the seed and the shrunk counterexample. FUZZ_SEED replays a run.
 */
export function fuzzSettings(numRuns: number): fc.Parameters<unknown> {
  const scaled = Math.max(1, Math.round((numRuns * RUNS) / 150));
  return {
    numRuns: scaled,
    includeErrorInReport: true,
    ...(process.env.FUZZ_SEED && { seed: Number(process.env.FUZZ_SEED) }),
  };
}
