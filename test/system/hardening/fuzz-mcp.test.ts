import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { soundPrompts } from '../../../src/mcp/prompts/index.ts';
import { INTERNAL_ERROR_MESSAGE } from '../../../src/mcp/tool-result.ts';
import { soundTools } from '../../../src/mcp/tools/index.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addRealSound, tone } from '../../mcp/real-sounds.ts';
import {
  assertClean,
  describeRequest,
  fuzzHeaders,
  fuzzSettings,
  leakIn,
  rawRequest,
  wireValue,
  type RawRequest,
  type RawResponse,
} from './fuzz-helpers.ts';

/**
 * The MCP server at /mcp through real HTTP, with arbitrary JSON: every tool's arguments, every
 * method's params, whole envelopes and batches, raw bodies and headers. Whatever comes in, the
 * answer is JSON-RPC (a result, a tool error result, or a JSON-RPC error), never an HTTP 5xx, never
 * an internal failure of a tool, never a stack trace or an internal path.
 */

/** JSON-RPC's own codes for a request it cannot take; -32603 (internal error) is not among them. */
const CLIENT_ERROR_CODES = new Set([-32700, -32600, -32601, -32602, -32000]);

const TOOLS = soundTools.map((tool) => ({ name: tool.name, argumentNames: Object.keys(tool.inputSchema.shape) }));

describe('fuzz: the MCP server', () => {
  let server: TestServer;
  let key: string;
  let freeKey: string;
  let ids: string[];

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('enterprise'));
    ({ key: freeKey } = await server.account('free'));
    ids = [
      (await addRealSound(server.services, tone(1, 0.1), 'Laser Zap', ['laser'])).id,
      (await addRealSound(server.services, tone(0.5, 0.05, 880), 'Coin Pickup', ['coin'])).id,
    ];
  });
  after(() => server.close());

  const mcpHeaders = (): Array<[string, string]> => [
    ['x-api-key', key],
    ['content-type', 'application/json'],
    ['accept', 'application/json, text/event-stream'],
  ];

  /** A value an argument may be given: any JSON, and the values that sit on the edges of the schemas. */
  const argumentValue = (): fc.Arbitrary<unknown> =>
    fc.oneof(
      { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(...ids, ` ${ids[0]} `, ids[0]!.toUpperCase(), '', ' ', 'x'.repeat(201), 'sound://x'),
      },
      {
        weight: 2,
        arbitrary: fc.oneof(
          fc.double(),
          fc.integer(),
          fc.constantFrom(0, -0, 1, -1, 1.5, 12, 13, 100, 101, 1e308, -1e308, 2 ** 53, -16, -40, -41, -5, -4.9),
        ),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'sfx',
          'SFX',
          'music',
          ['sfx', 'lofi'],
          [],
          ['jazz'],
          'relevance',
          'downloads',
          'asc',
          'desc',
          ['category', 'tags'],
          ['colour'],
          true,
          false,
          null,
        ),
      },
      {
        weight: 2,
        arbitrary: fc.oneof(
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc.array(fc.string({ maxLength: 10 }), { maxLength: 25 }),
        ),
      },
      { weight: 1, arbitrary: wireValue },
    );

  /** Sends a JSON-RPC body to /mcp with a valid key and the headers the transport wants. */
  async function post(body: unknown, headers = mcpHeaders()): Promise<{ response: RawResponse; context: string }> {
    const request: RawRequest = {
      method: 'POST',
      target: '/mcp',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    };
    const context = `${describeRequest(request)} ${String(request.body).slice(0, 400)}`;
    return { response: await rawRequest(server.url, request), context };
  }

  /** Every message of the answer is JSON-RPC 2.0: a result, or an error with an integer code and a clean message. */
  function assertJsonRpc(response: RawResponse, context: string): Array<Record<string, any>> {
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      assert.fail(`not JSON: ${context} -> ${response.status} ${response.body.slice(0, 200)}`);
    }
    const messages = (Array.isArray(body) ? body : [body]) as Array<Record<string, any>>;
    for (const message of messages) {
      assert.equal(message.jsonrpc, '2.0', `${context} -> ${response.body.slice(0, 300)}`);
      if ('error' in message) {
        assert.ok(
          Number.isInteger(message.error.code) && typeof message.error.message === 'string',
          `${context} -> ${response.body.slice(0, 300)}`,
        );
        assert.ok(
          CLIENT_ERROR_CODES.has(message.error.code) || message.error.code === -32029,
          `an error code that is not the client's: ${context} -> ${response.body.slice(0, 400)}`,
        );
      } else {
        assert.ok('result' in message, `neither result nor error: ${context} -> ${response.body.slice(0, 300)}`);
      }
    }
    return messages;
  }

  /** A tool's answer: a result (an error result when the arguments are wrong), never a failure inside the tool. */
  function assertToolAnswer(message: Record<string, any>, context: string) {
    if ('error' in message) return;
    const text = JSON.stringify(message.result.content ?? []);
    assert.ok(
      !text.includes(INTERNAL_ERROR_MESSAGE.slice(0, 30)),
      `a tool failed inside: ${context} -> ${text.slice(0, 300)}`,
    );
    assert.equal(leakIn(text), null, `${context} -> ${text.slice(0, 300)}`);
  }

  test('fuzz.mcp.arguments: any arguments to any tool get a result or an error result, never a failure', async () => {
    const call = fc.constantFrom(...TOOLS).chain((tool) =>
      fc.tuple(
        fc.constant(tool.name),
        fc.oneof(
          {
            weight: 8,
            arbitrary: fc.dictionary(
              fc.constantFrom(...tool.argumentNames, 'extra', 'constructor', ''),
              argumentValue(),
              { maxKeys: 5 },
            ),
          },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
          { weight: 1, arbitrary: fc.constant(undefined) },
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(call, fc.integer({ min: 1, max: 1e6 }), async ([name, args], id) => {
        const { response, context } = await post({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, ...(args !== undefined && { arguments: args }) },
        });
        // A "__proto__" key (or a "constructor" object holding "prototype") anywhere in a body is
        // refused whole by the JSON parser's guard against prototype poisoning: a parse error, as
        // fuzz.mcp.bodies expects of such a body. The strings as values are ordinary strings.
        if (holdsProtoKey(args)) {
          assertClean(response, [400], context);
          assert.equal(assertJsonRpc(response, context)[0]!.error.code, -32700, context);
          return;
        }
        assertClean(response, [200], context);
        const [message] = assertJsonRpc(response, context);
        assert.equal(message!.id, id, context);
        assertToolAnswer(message!, context);
      }),
      fuzzSettings(300),
    );
  });

  test(
    'fuzz.mcp.methods: any params to any method, ' + 'resources and prompts included, get a JSON-RPC answer',
    async () => {
      const method = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.constantFrom(
            'tools/call',
            'tools/list',
            'resources/read',
            'resources/list',
            'resources/templates/list',
            'prompts/get',
            'prompts/list',
            'ping',
            'completion/complete',
            'logging/setLevel',
            'initialize',
          ),
        },
        {
          weight: 1,
          arbitrary: fc.oneof(
            fc.string({ maxLength: 20 }),
            fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty'),
          ),
        },
      );
      const params = fc.oneof(
        fc.record(
          {
            uri: fc.oneof(
              fc.constantFrom(
                ...ids.map((id) => `sound://${id}`),
                'sound://',
                'sound://%zz',
                'sound://../x',
                'file:///etc/passwd',
                'http://x/',
              ),
              fc.string(),
            ),
          },
          { requiredKeys: [] },
        ),
        fc.record(
          {
            name: fc.oneof(
              fc.constantFrom(...soundPrompts.map((prompt) => prompt.name), ...TOOLS.map((tool) => tool.name)),
              fc.string(),
            ),
            arguments: fc.dictionary(
              fc.constantFrom('scene', 'mood', 'max_duration', 'style', 'count', 'x'),
              argumentValue(),
              { maxKeys: 4 },
            ),
          },
          { requiredKeys: [] },
        ),
        fc.record({
          cursor: fc.oneof(
            fc.string(),
            fc.constantFrom(
              Buffer.from('page:2').toString('base64url'),
              Buffer.from('page:0').toString('base64url'),
              'cGFnZToy==',
            ),
            fc.jsonValue(),
          ),
        }),
        fc.jsonValue({ maxDepth: 2 }),
      );
      await fc.assert(
        fc.asyncProperty(method, fc.option(params, { nil: undefined }), async (name, given) => {
          const { response, context } = await post({
            jsonrpc: '2.0',
            id: 7,
            method: name,
            ...(given !== undefined && { params: given }),
          });
          // 400: the transport refuses a message that is not JSON-RPC (params that are not an object).
          assertClean(response, [200, 400], context);
          for (const message of assertJsonRpc(response, context)) assertToolAnswer(message, context);
        }),
        fuzzSettings(300),
      );
    },
  );

  test('fuzz.mcp.envelopes: any JSON body, batches included, gets JSON-RPC or nothing (202)', async () => {
    const request = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()),
        id: fc.oneof(
          fc.integer(),
          fc.string({ maxLength: 10 }),
          fc.constant(null),
          fc.double(),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        method: fc.oneof(
          fc.constantFrom(
            'tools/call',
            'tools/list',
            'ping',
            'notifications/initialized',
            'notifications/cancelled',
            'resources/read',
          ),
          fc.string({ maxLength: 12 }),
        ),
        params: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(request, fc.array(request, { maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }));
    await fc.assert(
      fc.asyncProperty(body, async (json) => {
        const { response, context } = await post(json);
        assertClean(response, [200, 202, 400], context);
        if (response.status === 202) return assert.equal(response.body, '', context);
        for (const message of assertJsonRpc(response, context)) assertToolAnswer(message, context);
      }),
      fuzzSettings(300),
    );
  });

  test('fuzz.mcp.bodies: any bytes under any content type get a JSON-RPC error, never a 5xx', async () => {
    const contentType = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      '',
      'APPLICATION/JSON',
    );
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((array) => Buffer.from(array)),
      fc.string({ unit: 'binary', maxLength: 100 }).map((text) => Buffer.from(text)),
      fc
        .constantFrom(
          '{',
          '[',
          '{"jsonrpc":"2.0","id":1,"method":"tools/list"',
          '{"__proto__":{"x":1},"jsonrpc":"2.0","id":1,"method":"ping"}',
          '{"constructor":{"prototype":{"x":1}},"jsonrpc":"2.0","id":1,"method":"ping"}',
          '\u0000',
          '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
          'null',
          '1e999',
        )
        .map((text) => Buffer.from(text)),
      fc
        .integer({ min: 60 * 1024, max: 200 * 1024 })
        .map((size) => Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'a'.repeat(size)}"}}`)),
    );
    await fc.assert(
      fc.asyncProperty(contentType, bytes, async (type, body) => {
        const headers: Array<[string, string]> = [
          ['x-api-key', key],
          ['accept', 'application/json, text/event-stream'],
          ...(type === '' ? [] : [['content-type', type] as [string, string]]),
        ];
        const request: RawRequest = { method: 'POST', target: '/mcp', headers, body };
        const context = `${describeRequest(request)} ${body.subarray(0, 100).toString('latin1')}`;
        const response = await rawRequest(server.url, request);
        assertClean(response, [200, 202, 400, 413, 415], context);
        if (response.status !== 202) assertJsonRpc(response, context);
      }),
      fuzzSettings(200),
    );
  });

  test('fuzz.mcp.headers: any ordinary headers beside a valid key get a JSON-RPC answer or the REST 401', async () => {
    const accept = fc.constantFrom(
      'application/json, text/event-stream',
      'application/json',
      'text/event-stream',
      '*/*',
      '',
      'text/html',
    );
    await fc.assert(
      fc.asyncProperty(fuzzHeaders, accept, async (headers, acceptValue) => {
        const sent: Array<[string, string]> = [
          ['x-api-key', key],
          ['content-type', 'application/json'],
          ['accept', acceptValue],
          ...headers,
        ];
        const { response, context } = await post(
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_samples', arguments: {} } },
          sent,
        );
        // 401: a fuzzed x-api-key joins the real one; 406: an Accept without both types; 400: a bad
        // mcp-protocol-version; 415: a second content-type.
        assertClean(response, [200, 400, 401, 406, 415], context);
        if (response.status === 401) return assert.equal(typeof JSON.parse(response.body).error, 'string', context);
        for (const message of assertJsonRpc(response, context)) assertToolAnswer(message, context);
      }),
      fuzzSettings(200),
    );
  });

  test('fuzz.mcp.auth: without a valid key every method is 401, with a free one 403, in the REST shape', async () => {
    const keyHeader = fc.oneof(
      fc.constant<Array<[string, string]>>([]),
      fc
        .string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 })
        .map((value): Array<[string, string]> => [['x-api-key', value]]),
      fc.constant<Array<[string, string]>>([['authorization', 'Bearer KEY']]),
      fc.constant<Array<[string, string]>>([['x-api-key', 'FREE']]),
    );
    await fc.assert(
      fc.asyncProperty(
        keyHeader,
        fc.constantFrom('POST', 'GET', 'DELETE'),
        fc.jsonValue({ maxDepth: 2 }),
        async (headers, method, json) => {
          const sent = headers.map(([name, value]): [string, string] => [
            name,
            value.replace('KEY', key).replace('FREE', freeKey),
          ]);
          const free = sent.some(([, value]) => value === freeKey);
          const request: RawRequest = {
            method,
            target: '/mcp',
            headers: [...sent, ['content-type', 'application/json'], ['accept', 'application/json, text/event-stream']],
            body: method === 'GET' ? undefined : JSON.stringify(json),
          };
          const response = await rawRequest(server.url, request);
          assertClean(response, [free ? 403 : 401], describeRequest(request));
          const body = JSON.parse(response.body);
          assert.equal(typeof body.error, 'string');
          if (free) assert.match(body.upgrade_url, /\/dashboard\/upgrade$/);
        },
      ),
      fuzzSettings(100),
    );
  });

  test(
    'fuzz.mcp.invalid-params: params that do not fit their method are -32602 ' +
      'naming the field, not -32603; an Object.prototype name is no method',
    async () => {
      const cases: Array<[string, unknown, RegExp]> = [
        ['tools/call', { name: 'get_sound', arguments: [] }, /expected record.* at params\.arguments/],
        ['tools/call', { name: 5 }, /expected string.* at params\.name/],
        ['tools/call', undefined, /expected object.* at params/],
        ['resources/read', { uri: '' }, /expected a URI.* at params\.uri/],
        ['resources/read', { uri: 5 }, /expected string.* at params\.uri/],
        [
          'prompts/get',
          { name: 'find_sound_for_scene', arguments: { scene: 5 } },
          /expected string.* at params\.arguments\.scene/,
        ],
        ['tools/list', { cursor: 5 }, /expected string.* at params\.cursor/],
      ];
      for (const method of ['__proto__', 'constructor', 'toString']) {
        const { response, context } = await post({ jsonrpc: '2.0', id: 3, method });
        assert.equal(response.status, 200, context);
        assert.equal(assertJsonRpc(response, context)[0]!.error?.code, -32601, `${context} -> ${response.body}`);
      }
      for (const [method, params, says] of cases) {
        const { response, context } = await post({
          jsonrpc: '2.0',
          id: 3,
          method,
          ...(params !== undefined && { params }),
        });
        assert.equal(response.status, 200, context);
        const [message] = assertJsonRpc(response, context);
        assert.equal(message!.id, 3, context);
        assert.equal(message!.error?.code, -32602, `${context} -> ${response.body}`);
        assert.match(message!.error.message, new RegExp(`^Invalid params for ${method}: `), context);
        assert.match(message!.error.message, says, context);
      }
    },
  );

  test('fuzz.mcp.alive: after all of that a search finds its sound', async () => {
    const { response } = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_sounds', arguments: { q: 'laser' } },
    });
    assert.equal(response.status, 200);
    const [message] = Array.isArray(JSON.parse(response.body))
      ? JSON.parse(response.body)
      : [JSON.parse(response.body)];
    assert.equal(message.result.structuredContent.data[0].id, ids[0]);
  });
});

/**
 * Whether an object anywhere in `value` has what the JSON parser refuses as prototype poisoning:
 * an own "__proto__" key, or a "constructor" object with a "prototype" key (not merely strings).
 */
function holdsProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsProtoKey);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(
    ([key, inner]) =>
      key === '__proto__' ||
      (key === 'constructor' && inner !== null && typeof inner === 'object' && Object.hasOwn(inner, 'prototype')) ||
      holdsProtoKey(inner),
  );
}
