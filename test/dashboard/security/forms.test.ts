import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import formBody from '@fastify/formbody';
import Fastify from 'fastify';
import { addSignInThrottle } from '../../../src/dashboard/sessions/sign-in-throttle.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { signedIn } from '../helpers/accounts.ts';
import { csrfToken, ownAddress, uniqueEmail, visibleText, WebClient } from '../helpers/web-client.ts';

describe('dashboard forms: CSRF, throttling, body limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  /**
   * The dashboard's throttle (@fastify/rate-limit over the shared attempt log) in an app of its
   * own, so requests can come from any address: each one is a sign-in attempt whose password
   * then turns out wrong, answered with the throttle's admission.
   */
  const throttleApp = () => {
    const app = Fastify();
    app.register(formBody);
    app.register(async (scope) => {
      const throttle = await addSignInThrottle(scope, server.services.signInFailures);
      scope.post('/attempt', async (request) => throttle.admitSignIn(request));
    });
    const attempt = async (address: string, email: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/attempt',
          remoteAddress: address,
          payload: new URLSearchParams({ email }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).json() as { allowed: boolean; waitSeconds?: number };
    return { app, attempt };
  };

  test('csrf.security: a form without a token changes nothing and is answered 403', async () => {
    const email = uniqueEmail();
    const client = new WebClient(server.url, ownAddress());
    const response = await client.post('/dashboard/sign-up', { email, password: 'correct horse battery' });
    assert.equal(response.status, 403);
    assert.match(visibleText(response.text), /This form has expired/);
    assert.equal(await server.services.accounts.findByEmail(email), null);
  });

  test("csrf.security: a token from another browser's page is refused", async () => {
    const attacker = new WebClient(server.url, ownAddress());
    const token = csrfToken((await attacker.get('/dashboard/sign-up')).text);
    const victim = await signedIn(server, 'pro');
    const response = await victim.client.post('/dashboard/keys', { name: 'planted', _csrf: token });
    assert.equal(response.status, 403);
    assert.equal((await server.services.accounts.listKeys(victim.account.id)).length, 0);
  });

  test('csrf.security: signing out and revoking need the token too', async () => {
    const { client, account } = await signedIn(server, 'pro');
    const { record } = await server.services.accounts.createKey(account.id, 'kept');
    assert.equal((await client.post('/dashboard/sign-out', {})).status, 403);
    assert.equal((await client.get('/dashboard')).status, 200, 'still signed in');
    assert.equal((await client.post(`/dashboard/keys/${record.prefix}/revoke`, { _csrf: 'forged' })).status, 403);
    assert.equal((await server.services.accounts.listKeys(account.id)).length, 1, 'the key is still active');
  });

  test('csrf.security: the token before sign-in does not work after it (it is bound to the session)', async () => {
    const client = new WebClient(server.url, ownAddress());
    const anonymousToken = csrfToken((await client.get('/dashboard/sign-up')).text);
    await client.post('/dashboard/sign-up', {
      email: uniqueEmail(),
      password: 'correct horse battery',
      _csrf: anonymousToken,
    });
    const response = await client.post('/dashboard/sign-out', { _csrf: anonymousToken });
    assert.equal(response.status, 403);
  });

  test('throttle.sign-in: after 10 failures in 15 minutes even the right password waits, then works', async () => {
    const email = uniqueEmail();
    await new WebClient(server.url, ownAddress()).signUp(email);
    const client = new WebClient(server.url, ownAddress());
    for (let attempt = 0; attempt < 10; attempt++) {
      assert.equal((await client.signIn(email, `wrong password ${attempt}`)).status, 401);
    }
    const refused = await client.signIn(email);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(visibleText(refused.text), /Too many failed attempts\. Wait 15 min and try again\./);
    assert.equal(client.cookies.has('sc_session'), false);
    server.clock.advance(15 * 60 * 1000 + 1000);
    assert.equal((await client.signIn(email)).status, 303);
  });

  test('throttle.sign-in: the same message whether or not the email exists', async () => {
    const throttled = async (email: string) => {
      const client = new WebClient(server.url, ownAddress());
      for (let attempt = 0; attempt < 10; attempt++) await client.signIn(email, 'wrong password here');
      const response = await client.signIn(email, 'wrong password here');
      return { status: response.status, alert: /role="alert">([^<]+)</.exec(response.text)?.[1] };
    };
    const known = uniqueEmail();
    await new WebClient(server.url, ownAddress()).signUp(known);
    const a = await throttled(known);
    server.clock.advance(16 * 60 * 1000);
    const b = await throttled(uniqueEmail('nobody'));
    assert.deepEqual(a, b);
    server.clock.advance(16 * 60 * 1000);
  });

  test('throttle.sign-in: an email is counted across addresses, an address across emails', async () => {
    const { app, attempt } = throttleApp();
    const email = uniqueEmail();
    for (let i = 0; i < 10; i++) assert.equal((await attempt(`10.0.0.${i}`, email)).allowed, true);
    const respelled = await attempt('10.0.0.99', ` ${email.toUpperCase()}`);
    assert.equal(respelled.allowed, false, 'a new address (or another spelling) does not reset the email');
    assert.ok(respelled.waitSeconds! > 0);
    assert.equal((await attempt('10.0.0.99', uniqueEmail())).allowed, true);
    const address = '192.0.2.7';
    for (let i = 0; i < 10; i++) assert.equal((await attempt(address, uniqueEmail())).allowed, true);
    assert.equal((await attempt(address, uniqueEmail())).allowed, false, 'new emails do not reset the address');
    server.clock.advance(15 * 60 * 1000 + 1000);
    assert.equal((await attempt(address, email)).allowed, true);
    await app.close();
  });

  test(
    'throttle.sign-in: an email holding NUL is a wrong ' + 'sign-in like any other, its failures counted apart',
    async () => {
      // PostgreSQL stores no NUL: the failure log once refused the whole statement and the page was a 500.
      const client = new WebClient(server.url, ownAddress());
      assert.equal((await client.signIn('\u0000', '\u0000')).status, 401);
      assert.equal((await client.signIn(`${uniqueEmail()}\u0000`, 'wrong password here')).status, 401);
      const { app, attempt } = throttleApp();
      const plain = uniqueEmail();
      const withNul = plain.replace('@', '\u0000@');
      for (let i = 0; i < 10; i++) assert.equal((await attempt(`10.1.0.${i}`, withNul)).allowed, true);
      assert.equal((await attempt('10.1.0.99', withNul)).allowed, false, 'the email with NUL is throttled');
      assert.equal((await attempt('10.1.0.98', plain)).allowed, true, 'the email without it is not');
      server.clock.advance(15 * 60 * 1000 + 1000);
      await app.close();
    },
  );

  test('throttle.sign-up: refused sign-ups for taken emails count against the address too', async () => {
    const taken = uniqueEmail();
    await new WebClient(server.url, ownAddress()).signUp(taken);
    const client = new WebClient(server.url, ownAddress());
    for (let attempt = 0; attempt < 10; attempt++) assert.equal((await client.signUp(taken)).status, 400);
    assert.equal((await client.signUp(uniqueEmail())).status, 429);
    server.clock.advance(60 * 60 * 1000 + 1000);
  });

  test('form-body: a form body over 16 KiB is refused with an HTML page, not parsed', async () => {
    const client = new WebClient(server.url, ownAddress());
    const _csrf = csrfToken((await client.get('/dashboard/sign-in')).text);
    const response = await client.post('/dashboard/sign-in', {
      email: 'a@example.com',
      password: 'x'.repeat(20_000),
      _csrf,
    });
    assert.equal(response.status, 413);
    assert.match(response.headers.get('content-type')!, /text\/html/);
  });

  test(
    'form-body.scope: forms are parsed for the dashboard ' + 'only; the MCP endpoint still refuses a form body',
    async () => {
      const { key } = await server.account('pro');
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json, text/event-stream',
          'x-api-key': key,
        },
        body: 'jsonrpc=2.0&method=tools%2Flist',
      });
      assert.equal(response.status, 415);
    },
  );
});
