import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SIGN_IN_RULE, SIGN_UP_RULE } from '../../../src/dashboard/sessions/sign-in-throttle.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { uniqueEmail, WebClient, type WebResponse } from '../helpers/web-client.ts';

/** A visitor behind the trusted proxy: every request it sends names `address` in X-Forwarded-For. */
class ProxiedClient extends WebClient {
  constructor(
    baseUrl: string,
    readonly forwardedFor: string,
  ) {
    super(baseUrl);
  }

  override send(
    path: string,
    init: { method: string; headers?: Record<string, string>; body?: string },
  ): Promise<WebResponse> {
    return super.send(path, { ...init, headers: { ...init.headers, 'x-forwarded-for': this.forwardedFor } });
  }
}

/** The n-th address of the /64 `prefix` (four groups): a new interface identifier each time. */
function addressIn(prefix: string, n: number): string {
  return `${prefix}:${(n + 1).toString(16)}:${((n * 7919) & 0xffff).toString(16)}:a:${n.toString(16)}`;
}

/**
 * One home or server holds a whole IPv6 /64 and can send from any address in it: the sign-in and
 * sign-up limits count the /64 as one client, and an IPv4 client the same whether its address
 * comes as IPv4 or IPv4-mapped IPv6. Clients come through a trusted proxy (TRUST_PROXY=1).
 */
describe('dashboard sign-in and sign-up limits per network', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { TRUST_PROXY: '1' } });
  });
  after(() => server.close());

  const signIn = (address: string) =>
    new ProxiedClient(server.url, address).signIn(uniqueEmail('nobody'), 'wrong password');
  const signUp = (address: string) => new ProxiedClient(server.url, address).signUp(uniqueEmail());

  test(
    'throttle.ipv6: failed sign-ins from many addresses ' + 'of one /64 are counted together; another /64 is not',
    async () => {
      for (let i = 0; i < SIGN_IN_RULE.failures; i++)
        assert.equal((await signIn(addressIn('2001:db8:1:1', i))).status, 401);
      const refused = await signIn(addressIn('2001:db8:1:1', 1000));
      assert.equal(refused.status, 429, 'a new address of the same /64');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal((await signIn('2001:db8:1:1::1')).status, 429, 'however it is written');
      assert.equal((await signIn(addressIn('2001:db8:1:2', 0))).status, 401, 'the next /64');
      server.clock.advance(SIGN_IN_RULE.windowMs + 1000);
      assert.equal((await signIn(addressIn('2001:db8:1:1', 2000))).status, 401, 'and this one after the window');
    },
  );

  test('throttle.ipv4-mapped: an IPv4 client counts the same as IPv4 and as IPv4-mapped IPv6', async () => {
    for (let i = 0; i < SIGN_IN_RULE.failures; i++) {
      assert.equal((await signIn(i % 2 === 0 ? '203.0.113.7' : '::ffff:203.0.113.7')).status, 401);
    }
    assert.equal((await signIn('::ffff:203.0.113.7')).status, 429);
    assert.equal((await signIn('203.0.113.7')).status, 429);
    assert.equal((await signIn('203.0.113.8')).status, 401, 'its neighbour is another client');
    server.clock.advance(SIGN_IN_RULE.windowMs + 1000);
  });

  test(
    'throttle.sign-up-ipv6: sign-ups from many addresses ' + 'of one /64 are counted together; another /64 is not',
    async () => {
      for (let i = 0; i < SIGN_UP_RULE.signUps; i++)
        assert.equal((await signUp(addressIn('2001:db8:2:1', i))).status, 303);
      const refusedEmail = uniqueEmail();
      const refused = await new ProxiedClient(server.url, addressIn('2001:db8:2:1', 1000)).signUp(refusedEmail);
      assert.equal(refused.status, 429);
      assert.equal(await server.services.accounts.findByEmail(refusedEmail), null);
      assert.equal((await signUp(addressIn('2001:db8:2:2', 0))).status, 303, 'the next /64');
      server.clock.advance(SIGN_UP_RULE.windowMs + 1000);
    },
  );
});
