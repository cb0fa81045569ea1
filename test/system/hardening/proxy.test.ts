import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { SIGN_IN_RULE } from '../../../src/dashboard/sessions/sign-in-throttle.ts';
import { csrfToken, uniqueEmail, WebClient } from '../../dashboard/helpers/web-client.ts';
import { startAppServer, type AppServer } from './app-server.ts';

/** One failed sign-in (an unknown email, so only the address counts twice) as sent through a proxy. */
async function failSignIn(server: AppServer, forwardedFor?: string): Promise<number> {
  const client = new WebClient(server.url);
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  const page = await client.send('/dashboard/sign-in', { method: 'GET', headers });
  const response = await client.send('/dashboard/sign-in', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: uniqueEmail('nobody'),
      password: 'not the password',
      _csrf: csrfToken(page.text),
    }).toString(),
  });
  return response.status;
}

/** The `ip` of the request log lines of POST /dashboard/sign-in, in order. */
async function signInAddresses(server: AppServer): Promise<unknown[]> {
  await sleep(50);
  return server
    .logLines()
    .filter((line) => line.msg === 'request' && line.method === 'POST' && line.path === '/dashboard/sign-in')
    .map((line) => line.ip);
}

describe('proxy: TRUST_PROXY', () => {
  test(
    'proxy.config: TRUST_PROXY is off by default and takes a hop count ' +
      'or addresses; true and anything else stop with a one-line reason',
    () => {
      const trust = (value?: string) => loadConfig({ ...(value !== undefined && { TRUST_PROXY: value }) }).trustProxy;
      assert.equal(trust(), false);
      assert.equal(trust(''), false);
      assert.equal(trust('0'), false);
      assert.equal(trust('2'), 2);
      assert.deepEqual(trust('10.0.0.1, 10.1.0.0/16,fd00::/8'), ['10.0.0.1', '10.1.0.0/16', 'fd00::/8']);
      assert.deepEqual(trust('loopback,uniquelocal'), ['loopback', 'uniquelocal']);
      const refusals: Array<[string, RegExp]> = [
        [
          'true',
          new RegExp(
            '^invalid setting TRUST_PROXY: true would believe X-Forwarded-For from any client; ' +
              'give the number of proxies',
          ),
        ],
        ['false', /^invalid setting TRUST_PROXY: "false" is not a hop count, an IP address, a CIDR range/],
        ['10.0.0.0/33', /"10\.0\.0\.0\/33" is not/],
        ['10.0.0.1,', /"" is not/],
        ['-1', /"-1" is not/],
        ['proxy.internal', /"proxy\.internal" is not/],
      ];
      for (const [value, reason] of refusals) {
        assert.throws(
          () => trust(value),
          (error: unknown) =>
            error instanceof ConfigError && reason.test(error.message) && !error.message.includes('\n'),
          value,
        );
      }
    },
  );

  test(
    'proxy.off: without TRUST_PROXY the throttle and the log line ' +
      'see the socket address; a forged X-Forwarded-For changes nothing',
    async () => {
      const server = await startAppServer();
      try {
        // Every failure claims another client: all are counted against the one real address.
        for (let i = 0; i < SIGN_IN_RULE.failures; i++)
          assert.equal(await failSignIn(server, `198.51.100.${i + 1}`), 401);
        assert.equal(await failSignIn(server, '203.0.113.99'), 429);
        assert.equal(await failSignIn(server), 429);
        const addresses = await signInAddresses(server);
        assert.equal(addresses.length, SIGN_IN_RULE.failures + 2);
        assert.ok(
          addresses.every((ip) => ip === '127.0.0.1'),
          JSON.stringify(addresses),
        );
      } finally {
        await server.close();
      }
    },
  );

  test(
    'proxy.hops: with TRUST_PROXY=1 the client the proxy names is ' +
      'throttled and logged; another client behind the same proxy is not',
    async () => {
      const server = await startAppServer({ env: { TRUST_PROXY: '1' } });
      try {
        // A client's own X-Forwarded-For comes first; the proxy appends the address it saw: that one counts.
        for (let i = 0; i < SIGN_IN_RULE.failures; i++)
          assert.equal(await failSignIn(server, `10.9.9.${i}, 198.51.100.7`), 401);
        assert.equal(await failSignIn(server, '198.51.100.7'), 429);
        assert.equal(await failSignIn(server, '198.51.100.8'), 401, 'another client is not throttled');
        const addresses = await signInAddresses(server);
        assert.deepEqual(addresses, [...Array(SIGN_IN_RULE.failures + 1).fill('198.51.100.7'), '198.51.100.8']);
      } finally {
        await server.close();
      }
    },
  );

  test('proxy.addresses: X-Forwarded-For is believed only from a listed proxy address', async () => {
    const trusted = await startAppServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    const other = await startAppServer({ env: { TRUST_PROXY: '10.0.0.0/8' } });
    try {
      assert.equal(await failSignIn(trusted, '10.9.9.9, 198.51.100.7'), 401);
      assert.deepEqual(await signInAddresses(trusted), ['198.51.100.7']);
      // The socket (127.0.0.1) is not in 10.0.0.0/8: the header is the client's own words and is ignored.
      assert.equal(await failSignIn(other, '198.51.100.7'), 401);
      assert.deepEqual(await signInAddresses(other), ['127.0.0.1']);
    } finally {
      await trusted.close();
      await other.close();
    }
  });
});
