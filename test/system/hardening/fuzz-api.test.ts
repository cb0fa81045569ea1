import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import {
  assertClean,
  assertJsonError,
  describeRequest,
  fuzzHeaders,
  hugeHeader,
  manyHeaders,
  NODE_HEADER_LIMIT,
  rawRequest,
  fuzzSettings,
  invalidTargetByte,
  wireQuery,
  wireSegment,
  wireValue,
  type RawRequest,
} from './fuzz-helpers.ts';

/**
 * Every operation of the API with the statuses its section of the API document lists (500
 * included there, never accepted here), the query parameters it reads (extensions too), and
 * whether it needs a key. test/system/hardening/fuzz-helpers.ts holds the client and the checks.
 */
interface Operation {
  operationId: string;
  /** "Other statuses" of the operation's section, plus 200 (the extensions: as their issue fixes them). */
  listed: number[];
  apiKey: boolean;
  path(id: string): string;
  params: string[];
  /** Takes a sound id in its path. */
  byId: boolean;
}

const ID_PARAMS_STREAM = ['loudness', 'trim'];
const OPERATIONS: Operation[] = [
  {
    operationId: 'listSampleSounds',
    listed: [200, 500],
    apiKey: false,
    byId: false,
    path: () => '/api/v1/sounds/sample',
    params: ['q', 'tags', 'limit'],
  },
  {
    operationId: 'streamSampleSound',
    listed: [200, 404, 500],
    apiKey: false,
    byId: true,
    path: (id) => `/api/v1/sounds/sample/${id}/stream`,
    params: [],
  },
  {
    operationId: 'searchSounds',
    listed: [200, 400, 401, 403, 429, 500],
    apiKey: true,
    byId: false,
    path: () => '/api/v1/sounds',
    params: [
      'q',
      'category',
      'tags',
      'min_duration',
      'max_duration',
      'sort',
      'order',
      'page',
      'limit',
      'max_onset_ms',
      'min_lufs',
      'max_lufs',
      'facets',
    ],
  },
  {
    operationId: 'listPopularSounds',
    listed: [200, 401, 403, 429, 500],
    apiKey: true,
    byId: false,
    path: () => '/api/v1/sounds/popular',
    params: ['limit'],
  },
  {
    operationId: 'getSound',
    listed: [200, 401, 403, 404, 429, 500],
    apiKey: true,
    byId: true,
    path: (id) => `/api/v1/sounds/${id}`,
    params: [],
  },
  {
    operationId: 'streamSound',
    listed: [200, 401, 403, 404, 429, 500],
    apiKey: true,
    byId: true,
    path: (id) => `/api/v1/sounds/${id}/stream`,
    params: ID_PARAMS_STREAM,
  },
  {
    operationId: 'downloadSound',
    listed: [200, 401, 403, 404, 429, 500],
    apiKey: true,
    byId: true,
    path: (id) => `/api/v1/sounds/${id}/download`,
    params: ID_PARAMS_STREAM,
  },
  {
    operationId: 'findSimilarSounds',
    listed: [200, 401, 403, 404, 429, 500],
    apiKey: true,
    byId: true,
    path: (id) => `/api/v1/sounds/${id}/similar`,
    params: ['limit'],
  },
  {
    operationId: 'getSoundWaveform',
    listed: [200, 401, 403, 404, 429, 500],
    apiKey: true,
    byId: true,
    path: (id) => `/api/v1/sounds/${id}/waveform`,
    params: ['points'],
  },
];

/** What a caller may get: the listed statuses without 500, and without those this caller cannot earn. */
const allowedFor = (operation: Operation, cannot: number[] = []) =>
  operation.listed.filter((status) => status !== 500 && !cannot.includes(status));

const operation = fc.constantFrom(...OPERATIONS);
const keyedOperation = fc.constantFrom(...OPERATIONS.filter((candidate) => candidate.apiKey));

describe('fuzz: the API operations', () => {
  let server: TestServer;
  let key: string;
  let freeKey: string;
  let spentKey: string;
  let sampleId: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('enterprise'));
    ({ key: freeKey } = await server.account('free'));
    const spent = await server.account('pro');
    spentKey = spent.key;
    const { dailyQuota } = spent.account.plan;
    for (let i = 0; i < dailyQuota; i++)
      await server.services.quota.consume(spent.account.id, spent.account.id, dailyQuota, server.clock.now);
    sampleId = (
      await addSound(server.services, {
        name: 'Laser Zap',
        description: 'A short retro laser',
        tags: ['laser', 'retro'],
        sample: true,
      })
    ).id;
    await addSound(server.services, { name: 'Door Creak', tags: ['door'], category: 'AMBIENT', duration: 4 });
  });
  after(() => server.close());

  /** Sends, checks the status against `allowed` and the body for leaks; non-200 JSON answers must be `{ error }`. */
  async function expectClean(request: RawRequest, allowed: number[]) {
    const context = describeRequest(request);
    const response = await rawRequest(server.url, request);
    assertClean(response, allowed, context);
    if (response.status !== 200 && response.headBytes <= NODE_HEADER_LIMIT) assertJsonError(response, context);
    return response;
  }

  test(
    'fuzz.api.query: any query string, repeated parameters ' + 'included, gets a listed status with a valid key',
    async () => {
      // Operations that read no parameter still get some: they must ignore them.
      const withQuery = operation.chain((op) =>
        fc.tuple(fc.constant(op), wireQuery(op.params.length > 0 ? op.params : ['q', 'limit'])),
      );
      await fc.assert(
        fc.asyncProperty(withQuery, async ([op, query]) => {
          await expectClean(
            { target: `${op.path(sampleId)}?${query}`, headers: [['x-api-key', key]] },
            allowedFor(op, [401, 403, 429]),
          );
        }),
        fuzzSettings(300),
      );
    },
  );

  test('fuzz.api.repeated: every parameter of an operation sent many times over gets a listed status', async () => {
    const repeated = operation
      .filter((op) => op.params.length > 0)
      .chain((op) =>
        fc.tuple(
          fc.constant(op),
          fc.array(fc.tuple(fc.constantFrom(...op.params), fc.integer({ min: 2, max: 60 }), wireValue), {
            minLength: 1,
            maxLength: 4,
          }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(repeated, async ([op, params]) => {
        const query = params
          .flatMap(([name, times, value]) =>
            Array.from({ length: times }, (_, i) => `${name}=${i % 2 === 0 ? value : i}`),
          )
          .join('&');
        await expectClean(
          { target: `${op.path(sampleId)}?${query}`, headers: [['x-api-key', key]] },
          allowedFor(op, [401, 403, 429]),
        );
      }),
      fuzzSettings(150),
    );
  });

  test('fuzz.api.path: any id in any id path is found or 404, with or without a key', async () => {
    const idOperation = operation.filter((op) => op.byId);
    await fc.assert(
      fc.asyncProperty(idOperation, wireSegment, fc.boolean(), async (op, id, withKey) => {
        const request: RawRequest = { target: op.path(id), headers: withKey ? [['x-api-key', key]] : [] };
        // Without a key an id route is 401, unless the router cannot read the path at all (404 first).
        const cannot = withKey ? [401, 403, 429] : op.apiKey ? [200, 403, 429] : [401, 403, 429];
        await expectClean(request, allowedFor(op, cannot));
      }),
      fuzzSettings(300),
    );
  });

  test(
    'fuzz.api.keys: without a valid key (none, a wrong one, a Bearer ' +
      'header, two) every keyed operation is 401, whatever the query',
    async () => {
      const keyHeaders = fc.oneof(
        fc.constant<Array<[string, string]>>([]),
        wireValue.map((value): Array<[string, string]> => [['x-api-key', decodeURIComponentSafe(value)]]),
        fc.constantFrom<Array<[string, string]>>(
          [['authorization', 'Bearer KEY']],
          [['x-api-key', 'KEY ']],
          [['x-api-key', 'KEYx']],
          [
            ['x-api-key', 'KEY'],
            ['x-api-key', 'KEY'],
          ],
          [['x-api-key', 'sc_']],
          [['x-api-key', 'SC_KEY']],
          [['x-api-key', '']],
          [['x-api-key', ' ']],
          [['X-Api-Key', 'KEY\u00ff']],
        ),
      );
      await fc.assert(
        fc.asyncProperty(
          keyedOperation,
          keyHeaders,
          wireQuery(['q', 'limit', 'loudness']),
          async (op, headers, query) => {
            // KEY stands for the valid key with its last character changed: right prefix, wrong checksum.
            const sent = headers.map(([name, value]): [string, string] => [
              name,
              value.replace('KEY', key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A')),
            ]);
            const request = { target: `${op.path(sampleId)}?${query}`, headers: sent };
            const response = await expectClean(request, allowedFor(op, [200, 400, 403, 404, 429]));
            assert.equal(response.status, 401, describeRequest(request));
          },
        ),
        fuzzSettings(150),
      );
    },
  );

  test(
    'fuzz.api.plans: a free-plan key is 403 and a spent one ' +
      '429 on every keyed operation, whatever the query or id',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          keyedOperation,
          fc.boolean(),
          wireQuery(['q', 'limit', 'page']),
          fc.option(wireSegment, { nil: undefined }),
          async (op, free, query, id) => {
            const request = {
              target: `${op.path(id ?? sampleId)}?${query}`,
              headers: [['x-api-key', free ? freeKey : spentKey]] as Array<[string, string]>,
            };
            const response = await expectClean(request, allowedFor(op, [200, 400, 401, free ? 429 : 403]));
            if (id === undefined) assert.equal(response.status, free ? 403 : 429, describeRequest(request));
            if (response.status === 403) assert.match(JSON.parse(response.body).upgrade_url, /\/dashboard\/upgrade$/);
            if (response.status === 429) assert.ok(response.headers['retry-after'], 'a 429 says when to retry');
          },
        ),
        fuzzSettings(150),
      );
    },
  );

  test('fuzz.api.headers: any ordinary headers beside a valid key get a listed status', async () => {
    await fc.assert(
      fc.asyncProperty(operation, fuzzHeaders, async (op, headers) => {
        const request: RawRequest = { target: op.path(sampleId), headers: [['x-api-key', key], ...headers] };
        await expectClean(request, allowedFor(op, [400, 429]));
      }),
      fuzzSettings(300),
    );
  });

  test(
    'fuzz.api.big-headers: many or huge headers get a ' + "listed status, or the parser's refusal past 16 KiB",
    async () => {
      await fc.assert(
        fc.asyncProperty(operation, fc.oneof(manyHeaders, hugeHeader), async (op, headers) => {
          const request: RawRequest = { target: op.path(sampleId), headers: [['x-api-key', key], ...headers] };
          const response = await expectClean(request, allowedFor(op, [400, 429]));
          // A head the parser let through was answered by the endpoint itself.
          if (response.headBytes <= NODE_HEADER_LIMIT) assert.ok(allowedFor(op, [400, 429]).includes(response.status));
        }),
        fuzzSettings(50),
      );
    },
  );

  test("fuzz.api.long-url: a query or id past 16 KiB gets the parser's refusal, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(operation, fc.integer({ min: NODE_HEADER_LIMIT, max: 96 * 1024 }), async (op, size) => {
        const filler = 'a'.repeat(size);
        const target = op.byId ? op.path(filler) : `${op.path(sampleId)}?q=${filler}`;
        const request = { target, headers: [['x-api-key', key]] as Array<[string, string]> };
        const response = await expectClean(request, []);
        assertJsonError(response, describeRequest(request));
      }),
      fuzzSettings(10),
    );
  });

  test('fuzz.api.methods: other methods on the API paths are refused with a JSON error, never a 5xx', async () => {
    const method = fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE');
    const contentType = fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'x/y',
    );
    await fc.assert(
      fc.asyncProperty(
        operation,
        method,
        contentType,
        fc.option(wireValue, { nil: undefined }),
        async (op, verb, type, body) => {
          const request: RawRequest = {
            method: verb,
            target: op.path(sampleId),
            headers: [
              ['x-api-key', key],
              ['content-type', type],
            ],
            body,
          };
          const response = await rawRequest(server.url, request);
          // HEAD is the GET without a body; OPTIONS the CORS answer on the public paths (204, no body),
          // elsewhere its catch-all route, whose body parser may refuse first (400, 413, 415). The others
          // name no route: 404, whatever the body (no parser's refusal of a body nothing would read).
          const allowed =
            verb === 'HEAD' ? [200] : verb !== 'OPTIONS' ? [404] : op.apiKey ? [400, 404, 405, 413, 415] : [204];
          assertClean(response, allowed, describeRequest(request));
          if (response.status >= 400) assertJsonError(response, describeRequest(request));
          else assert.equal(response.bytes.length, 0, describeRequest(request));
        },
      ),
      fuzzSettings(75),
    );
  });

  test(
    'fuzz.api.invalid-http: raw NUL, control, space and non-UTF-8 ' +
      "bytes in the target or a header are the parser's 400",
    async () => {
      const where = fc.constantFrom('path', 'query', 'header');
      await fc.assert(
        fc.asyncProperty(operation, invalidTargetByte, where, async (op, byte, place) => {
          // HTTP/1.1 (RFC 9112) allows only visible ASCII in a request target, and no NUL, CR, LF or
          // other control but tab in a field value: Node's parser refuses the message before any route.
          const inHeader = place === 'header';
          // allowed in a field value
          if (inHeader && (byte === '\t' || byte === ' ' || byte.charCodeAt(0) >= 0x80)) return;
          const target =
            place === 'path'
              ? op.byId
                ? op.path(`a${byte}b`)
                : `${op.path(sampleId)}${byte}x`
              : place === 'query'
                ? `${op.path(sampleId)}?q=a${byte}b`
                : op.path(sampleId);
          const headers: Array<[string, string]> = [
            ['x-api-key', key],
            ...(inHeader ? [['x-fuzz', `a${byte}b`] as [string, string]] : []),
          ];
          const request = { target, headers };
          const response = await rawRequest(server.url, request);
          assertClean(response, [400], describeRequest(request));
          assertJsonError(response, describeRequest(request));
        }),
        fuzzSettings(150),
      );
    },
  );

  test('fuzz.api.alive: after all of that the server answers as before', async () => {
    const search = await rawRequest(server.url, { target: '/api/v1/sounds?q=laser', headers: [['x-api-key', key]] });
    assert.equal(search.status, 200);
    assert.equal(JSON.parse(search.body).data[0].id, sampleId);
    const samples = await rawRequest(server.url, { target: '/api/v1/sounds/sample' });
    assert.equal(samples.status, 200);
  });
});

/** A fuzzed wire value as a header would carry it: decoded where it decodes, as sent otherwise; latin1 bytes only. */
function decodeURIComponentSafe(value: string): string {
  let text: string;
  try {
    text = decodeURIComponent(value);
  } catch {
    text = value;
  }
  // Only what a header value may hold (visible ASCII, space, tab, obs-text), trimmed as the parser would.
  return [...text]
    .filter((char) => {
      const code = char.charCodeAt(0);
      return char.length === 1 && (code === 0x09 || (code >= 0x20 && code !== 0x7f && code <= 0xff));
    })
    .join('')
    .trim();
}
