import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { generateApiKey } from '../../src/accounts/api-key.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { soundEndpoints } from '../../src/api/sounds/index.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';

/** One security suite, run against every protected route. */
describe('auth.security', () => {
  let server: TestServer;
  let routes: string[];
  let proKey: string;
  /**
   * Each test comes from an address of its own, through a trusted proxy: the suite sends more
   * unknown keys than one address may (quota/unknown-keys.ts), and the throttle is not under test here.
   */
  let address = 0;
  beforeEach(() => {
    address++;
  });
  const get = (route: string, headers: Record<string, string>) =>
    server.get(route, { headers: { ...headers, 'x-forwarded-for': `10.0.0.${address}` } });

  before(async () => {
    server = await startServer({ env: { TRUST_PROXY: '1' } });
    // A real MP3: the pictures are drawn from it.
    const { id } = await addRealSound(server.services, tone(0.5, 0.3), 'Door Slam');
    // Every endpoint declared with an API key, the extensions included, so a new one is covered at once.
    // A pack needs its ids: the one required query parameter among them.
    routes = soundEndpoints
      .filter((endpoint) => endpoint.security === 'apiKey')
      .map((endpoint) => endpoint.url.replace(':id', id) + (endpoint.url === '/api/v1/packs' ? `?ids=${id}` : ''));
    assert.ok(routes.length >= 7);
    ({ key: proKey } = await server.account('pro'));
  });
  after(() => server.close());

  const expectStatus = async (route: string, status: number, headers: Record<string, string>) => {
    const response = await get(route, headers);
    assert.equal(response.status, status, `${route} with ${JSON.stringify(headers)}`);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const body = await response.json();
    assert.equal(typeof body.error, 'string');
    assert.equal(response.headers.get('x-ratelimit-limit'), null, 'refused requests carry no quota headers');
    return body;
  };

  test('auth.missing: no key is 401 with a message naming the x-api-key header', async () => {
    for (const route of routes) {
      const body = await expectStatus(route, 401, {});
      assert.match(body.error, /x-api-key/);
    }
  });

  test('auth.bearer: a valid key sent as Authorization: Bearer is 401', async () => {
    for (const route of routes) await expectStatus(route, 401, { authorization: `Bearer ${proKey}` });
  });

  test('auth.invalid: malformed, bad-checksum and unknown well-formed keys are 401', async () => {
    const unknown = generateApiKey().key;
    const badChecksum = proKey.slice(0, -1) + (proKey.endsWith('a') ? 'b' : 'a');
    for (const key of ['nonsense', 'sc_', `${proKey}x`, badChecksum, unknown, proKey.toUpperCase()]) {
      for (const route of routes) await expectStatus(route, 401, { 'x-api-key': key });
    }
  });

  test('auth.revoked: a revoked key stops working at once', async () => {
    const { account, key } = await server.account('pro');
    assert.equal((await get(routes[0]!, { 'x-api-key': key })).status, 200);
    const [record] = await server.services.accounts.listKeys(account.id);
    await server.services.accounts.revokeKey(record!.prefix);
    for (const route of routes) await expectStatus(route, 401, { 'x-api-key': key });
  });

  test('auth.free: a valid key on the free plan is 403 with an upgrade_url', async () => {
    const { key } = await server.account('free');
    for (const route of routes) {
      const body = await expectStatus(route, 403, { 'x-api-key': key });
      assert.match(body.upgrade_url, /^http:\/\/127\.0\.0\.1:\d+\//);
    }
  });

  test('auth.happy: pro and enterprise keys get 200 with quota headers', async () => {
    const { key: enterpriseKey } = await server.account('enterprise');
    for (const [key, limit] of [
      [proKey, '2500'],
      [enterpriseKey, '50000'],
    ] as const) {
      for (const route of routes) {
        const response = await get(route, { 'x-api-key': key });
        assert.equal(response.status, 200, route);
        assert.equal(response.headers.get('x-ratelimit-limit'), limit);
        assert.match(response.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
        assert.match(response.headers.get('x-ratelimit-reset') ?? '', /^\d+$/);
      }
    }
  });

  test('auth.plan-change: moving an account to free takes effect within a second', async () => {
    const { account, key } = await server.account('pro');
    assert.equal((await get(routes[0]!, { 'x-api-key': key })).status, 200);
    await server.services.accounts.setPlan(account.email, 'free');
    assert.equal((await get(routes[0]!, { 'x-api-key': key })).status, 403);
  });
});
