import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { generateApiKey } from '../../src/accounts/api-key.ts';
import { UNKNOWN_KEY_RULE } from '../../src/quota/unknown-keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const LIMIT = UNKNOWN_KEY_RULE.keys;

/**
 * Anyone can make keys with a valid checksum, and each costs a lookup. Past a few unknown keys
 * from one client address, that address is answered 429 without one; other addresses go on.
 * Clients come from addresses of their own on the loopback network (127.0.0.x).
 */
describe('quota.unknown-keys', () => {
  let server: TestServer;
  let known: string;
  let lookups: () => number;
  before(async () => {
    server = await startServer();
    ({ key: known } = await server.account('pro'));
    lookups = countKeyLookups(server);
  });
  after(() => server.close());

  test(
    'unknown-keys.flood: after the limit an address gets 429 with ' +
      "Retry-After and the API's body, and its keys are no longer looked up",
    async () => {
      const from = '127.0.0.2';
      const before = lookups();
      for (let i = 0; i < LIMIT; i++)
        assert.equal((await call(server, '/api/v1/sounds', { key: generateApiKey().key, from })).status, 401);
      assert.equal(lookups() - before, LIMIT, 'each unknown key under the limit was looked up');
      const flood = await Promise.all(
        Array.from({ length: 200 }, () => call(server, '/api/v1/sounds', { key: generateApiKey().key, from })),
      );
      assert.deepEqual(new Set(flood.map((answer) => answer.status)), new Set([429]));
      assert.equal(lookups() - before, LIMIT, 'the flood did not reach the database');
      const [refused] = flood;
      const body = JSON.parse(refused!.body) as { error: string; limit: number; reset: number };
      assert.match(
        body.error,
        new RegExp(`^Too many unknown API keys from this address: ${LIMIT} in 60 seconds; try again in \\d+ seconds$`),
      );
      assert.equal(body.limit, LIMIT);
      const retryAfter = Number(refused!.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${retryAfter}`);
      assert.equal(body.reset, Math.floor(server.clock.now / 1000) + retryAfter);
      assert.equal(refused!.headers['x-ratelimit-limit'], String(LIMIT));
      assert.equal(refused!.headers['x-ratelimit-remaining'], '0');
      assert.equal(refused!.headers['x-ratelimit-reset'], String(body.reset));
      // The address is refused before any lookup, so a known key from it waits too.
      assert.equal((await call(server, '/api/v1/sounds', { key: known, from })).status, 429);
    },
  );

  test(
    'unknown-keys.others: a known key from another ' + 'address is unaffected, and counts its quota as usual',
    async () => {
      for (let i = 0; i <= LIMIT; i++)
        await call(server, '/api/v1/sounds', { key: generateApiKey().key, from: '127.0.0.3' });
      assert.equal(
        (await call(server, '/api/v1/sounds', { key: generateApiKey().key, from: '127.0.0.3' })).status,
        429,
      );
      const answer = await call(server, '/api/v1/sounds', { key: known, from: '127.0.0.4' });
      assert.equal(answer.status, 200);
      assert.match(String(answer.headers['x-ratelimit-remaining']), /^\d+$/);
      assert.equal(
        (await call(server, '/api/v1/sounds', { key: generateApiKey().key, from: '127.0.0.4' })).status,
        401,
        'its own count is its own',
      );
    },
  );

  test(
    'unknown-keys.mcp: /mcp counts unknown keys with ' + 'REST, per address, and refuses a flood the same way',
    async () => {
      const from = '127.0.0.5';
      const before = lookups();
      for (let i = 0; i < LIMIT / 2; i++)
        assert.equal((await call(server, '/api/v1/sounds', { key: generateApiKey().key, from })).status, 401);
      for (let i = 0; i < LIMIT / 2; i++) assert.equal((await callMcp(server, generateApiKey().key, from)).status, 401);
      const flood = await Promise.all(Array.from({ length: 50 }, () => callMcp(server, generateApiKey().key, from)));
      assert.deepEqual(new Set(flood.map((answer) => answer.status)), new Set([429]));
      assert.equal(JSON.parse(flood[0]!.body).limit, LIMIT);
      assert.ok(Number(flood[0]!.headers['retry-after']) >= 1);
      assert.equal((await call(server, '/api/v1/sounds', { key: generateApiKey().key, from })).status, 429);
      assert.equal(lookups() - before, LIMIT);
      assert.equal((await callMcp(server, known, '127.0.0.6')).status, 200, 'a known key from elsewhere still works');
    },
  );

  test(
    'unknown-keys.malformed: missing, malformed and bad-checksum ' +
      'keys are refused without a lookup and never count',
    async () => {
      const from = '127.0.0.7';
      const before = lookups();
      const badChecksum = known.slice(0, -1) + (known.endsWith('a') ? 'b' : 'a');
      for (let i = 0; i < LIMIT * 3; i++) {
        for (const key of [undefined, 'nonsense', `${known}x`, badChecksum])
          assert.equal((await call(server, '/api/v1/sounds', { key, from })).status, 401);
      }
      assert.equal(lookups(), before);
      assert.equal((await call(server, '/api/v1/sounds', { key: known, from })).status, 200);
    },
  );

  test(
    'unknown-keys.forwarded: without TRUST_PROXY a forged ' +
      "X-Forwarded-For changes nothing: the socket's address is counted",
    async () => {
      const from = '127.0.0.8';
      for (let i = 0; i < LIMIT; i++) {
        assert.equal(
          (
            await call(server, '/api/v1/sounds', {
              key: generateApiKey().key,
              from,
              forwardedFor: `198.51.100.${i + 1}`,
            })
          ).status,
          401,
        );
      }
      assert.equal(
        (await call(server, '/api/v1/sounds', { key: generateApiKey().key, from, forwardedFor: '203.0.113.9' })).status,
        429,
      );
    },
  );
});

describe('quota.unknown-keys behind a proxy', () => {
  let server: TestServer;
  let known: string;
  before(async () => {
    server = await startServer({ env: { TRUST_PROXY: '1' } });
    ({ key: known } = await server.account('pro'));
  });
  after(() => server.close());

  test(
    'unknown-keys.proxy: with TRUST_PROXY=1 the client the proxy ' +
      'names is limited; another client behind the same proxy is not',
    async () => {
      // A client's own X-Forwarded-For comes first; the proxy appends the address it saw: that one counts.
      for (let i = 0; i < LIMIT; i++) {
        assert.equal(
          (
            await call(server, '/api/v1/sounds', {
              key: generateApiKey().key,
              forwardedFor: `10.9.9.${i}, 198.51.100.7`,
            })
          ).status,
          401,
        );
      }
      assert.equal(
        (await call(server, '/api/v1/sounds', { key: generateApiKey().key, forwardedFor: '198.51.100.7' })).status,
        429,
      );
      assert.equal((await call(server, '/api/v1/sounds', { key: known, forwardedFor: '198.51.100.8' })).status, 200);
      assert.equal(
        (await call(server, '/api/v1/sounds', { key: generateApiKey().key, forwardedFor: '198.51.100.8' })).status,
        401,
      );
    },
  );

  test(
    'unknown-keys.ipv6: unknown keys from many addresses of ' +
      'one IPv6 /64 count together; another /64 is not refused',
    async () => {
      for (let i = 0; i < LIMIT; i++) {
        assert.equal(
          (
            await call(server, '/api/v1/sounds', {
              key: generateApiKey().key,
              forwardedFor: `2001:db8:5:1::${(i + 1).toString(16)}`,
            })
          ).status,
          401,
        );
      }
      assert.equal(
        (await call(server, '/api/v1/sounds', { key: generateApiKey().key, forwardedFor: '2001:db8:5:1:abcd::9' }))
          .status,
        429,
      );
      assert.equal(
        (await call(server, '/api/v1/sounds', { key: generateApiKey().key, forwardedFor: '2001:db8:5:2::1' })).status,
        401,
      );
    },
  );
});

/**
 * Counts the key lookups (queries reading api_keys) the server's database is asked for, by
 * wrapping the executor every query of its Kysely instance goes through.
 */
function countKeyLookups(server: TestServer): () => number {
  const executor = server.services.database.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  let count = 0;
  executor.executeQuery = ((query: { sql: string }, ...rest: unknown[]) => {
    if (/\bfrom "api_keys"/i.test(query.sql)) count += 1;
    return (execute as (...args: unknown[]) => unknown)(query, ...rest);
  }) as typeof executor.executeQuery;
  return () => count;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function call(
  server: TestServer,
  path: string,
  options: { key?: string; from?: string; forwardedFor?: string; method?: string; body?: string },
): Promise<Answer> {
  const headers: http.OutgoingHttpHeaders = {};
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (options.forwardedFor !== undefined) headers['x-forwarded-for'] = options.forwardedFor;
  if (options.body !== undefined)
    Object.assign(headers, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  return new Promise((resolve, reject) => {
    const request = http.request(
      server.url + path,
      { method: options.method ?? 'GET', headers, localAddress: options.from, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

function callMcp(server: TestServer, key: string, from: string): Promise<Answer> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search_sounds', arguments: { limit: 1 } },
  });
  return call(server, '/mcp', { key, from, method: 'POST', body });
}
