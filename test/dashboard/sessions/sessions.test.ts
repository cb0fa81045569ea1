import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashSessionId } from '../../../src/accounts/sessions.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { csrfToken, ownAddress, uniqueEmail, visibleText, WebClient } from '../helpers/web-client.ts';

describe('dashboard sign-up, sign-in and sessions', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test(
    'sign-up.happy: a new account is on the free plan, signed ' +
      "in, with an argon2id password hash at OWASP's minimum cost",
    async () => {
      const client = new WebClient(server.url, ownAddress());
      const email = uniqueEmail();
      const response = await client.signUp(email);
      assert.equal(response.status, 303);
      assert.equal(response.location, '/dashboard');
      const stored = await server.services.accounts.findByEmail(email);
      assert.equal(stored?.plan.name, 'free');
      assert.match(stored!.passwordHash!, /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      assert.doesNotMatch(stored!.passwordHash!, /correct horse/);
      const overview = await client.get('/dashboard');
      assert.equal(overview.status, 200);
      assert.match(visibleText(overview.text), new RegExp(`Signed in as ${email} on the Free plan`));
    },
  );

  test('sign-up.errors: a short password and a malformed email are refused beside their fields', async () => {
    const client = new WebClient(server.url, ownAddress());
    const short = await client.post(
      '/dashboard/sign-up',
      { email: uniqueEmail(), password: 'short' },
      '/dashboard/sign-up',
    );
    assert.equal(short.status, 400);
    assert.match(short.text, /id="password-error">Use at least 10 characters/);
    const malformed = await client.post(
      '/dashboard/sign-up',
      { email: 'not-an-email', password: 'long enough password' },
      '/dashboard/sign-up',
    );
    assert.equal(malformed.status, 400);
    assert.match(malformed.text, /id="email-error">Enter an email address/);
    assert.match(malformed.text, /value="not-an-email"/, 'the form keeps what was typed');
  });

  test('sign-up.privacy: a taken email gets a message that does not say the account exists', async () => {
    const email = uniqueEmail();
    await new WebClient(server.url, ownAddress()).signUp(email);
    const again = await new WebClient(server.url, ownAddress()).signUp(email, 'another long password');
    assert.equal(again.status, 400);
    const text = visibleText(again.text);
    assert.match(text, /could not create an account with these details/);
    assert.doesNotMatch(text, /already exists|already registered|is taken/i);
  });

  test('sign-in.privacy: an unknown email and a wrong password get the same status and message', async () => {
    const email = uniqueEmail();
    await new WebClient(server.url, ownAddress()).signUp(email);
    await server.services.accounts.createAccount(uniqueEmail('cli'), 'pro');
    const wrongPassword = await new WebClient(server.url, ownAddress()).signIn(email, 'not the password at all');
    const unknownEmail = await new WebClient(server.url, ownAddress()).signIn(
      uniqueEmail('nobody'),
      'not the password at all',
    );
    assert.equal(wrongPassword.status, 401);
    assert.equal(unknownEmail.status, 401);
    const message = (page: string) => /role="alert">([^<]+)</.exec(page)?.[1];
    assert.ok(message(wrongPassword.text));
    assert.equal(message(wrongPassword.text), message(unknownEmail.text));
  });

  test('sign-in.security: an account made by the CLI has no password and cannot be signed into', async () => {
    const email = uniqueEmail('cli');
    await server.services.accounts.createAccount(email, 'pro');
    const response = await new WebClient(server.url, ownAddress()).signIn(email, '');
    assert.equal(response.status, 400);
    const guessed = await new WebClient(server.url, ownAddress()).signIn(email, 'any password at all');
    assert.equal(guessed.status, 401);
  });

  test('session.security: the cookie is HttpOnly and SameSite=Lax, and only its hash is stored', async () => {
    const client = new WebClient(server.url, ownAddress());
    const response = await client.signUp(uniqueEmail());
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('sc_session='))!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.doesNotMatch(cookie, /Secure/, 'no Secure flag on a plain-http PUBLIC_URL');
    const id = client.cookies.get('sc_session')!;
    const rows = await server.services.database.db.selectFrom('dashboard_sessions').selectAll().execute();
    assert.ok(rows.some((row) => row.id_hash === hashSessionId(id)));
    assert.ok(rows.every((row) => row.id_hash !== id));
  });

  test('session.rotation: signing in issues a new session id and ends the one the browser had', async () => {
    const email = uniqueEmail();
    const client = new WebClient(server.url, ownAddress());
    await client.signUp(email);
    const before = client.cookies.get('sc_session')!;
    const signIn = await client.post('/dashboard/sign-in', {
      email,
      password: 'correct horse battery',
      _csrf: csrfToken((await client.get('/dashboard/upgrade')).text),
    });
    assert.equal(signIn.status, 303);
    const afterId = client.cookies.get('sc_session')!;
    assert.notEqual(afterId, before);
    const stale = new WebClient(server.url, ownAddress());
    stale.cookies.set('sc_session', before);
    assert.equal((await stale.get('/dashboard')).status, 303, 'the old id no longer opens the dashboard');
    assert.equal((await client.get('/dashboard')).status, 200);
  });

  test('session.fixation: an id the server never issued is ignored and replaced at sign-in', async () => {
    const email = uniqueEmail();
    await new WebClient(server.url, ownAddress()).signUp(email);
    const client = new WebClient(server.url, ownAddress());
    const planted = 'A'.repeat(43);
    client.cookies.set('sc_session', planted);
    assert.equal((await client.get('/dashboard')).status, 303);
    await client.signIn(email);
    assert.notEqual(client.cookies.get('sc_session'), planted);
    assert.equal((await client.get('/dashboard')).status, 200);
  });

  test('sign-out: ends the session on the server, so the old cookie stops working', async () => {
    const client = new WebClient(server.url, ownAddress());
    await client.signUp(uniqueEmail());
    const id = client.cookies.get('sc_session')!;
    const out = await client.post('/dashboard/sign-out', {}, '/dashboard');
    assert.equal(out.status, 303);
    assert.equal(out.location, '/');
    assert.equal(client.cookies.has('sc_session'), false);
    const replay = new WebClient(server.url, ownAddress());
    replay.cookies.set('sc_session', id);
    assert.equal((await replay.get('/dashboard')).status, 303);
  });

  test('session.expiry: a session ends a week after sign-in', async () => {
    const client = new WebClient(server.url, ownAddress());
    await client.signUp(uniqueEmail());
    server.clock.advance(7 * 24 * 3600 * 1000 - 60_000);
    assert.equal((await client.get('/dashboard')).status, 200);
    server.clock.advance(120_000);
    const expired = await client.get('/dashboard');
    assert.equal(expired.status, 303);
    assert.match(expired.location!, /^\/dashboard\/sign-in\?next=/);
  });

  test('sign-in.redirect: next returns to a dashboard page and never to another site', async () => {
    const email = uniqueEmail();
    await new WebClient(server.url, ownAddress()).signUp(email);
    const client = new WebClient(server.url, ownAddress());
    const form = await client.get('/dashboard/sign-in?next=/dashboard/keys');
    assert.match(form.text, /name="next" value="\/dashboard\/keys"/);
    const back = await client.post('/dashboard/sign-in', {
      email,
      password: 'correct horse battery',
      next: '/dashboard/keys',
      _csrf: csrfToken(form.text),
    });
    assert.equal(back.location, '/dashboard/keys');
    const other = new WebClient(server.url, ownAddress());
    const evil = await other.post(
      '/dashboard/sign-in',
      { email, password: 'correct horse battery', next: '//evil.example/x' },
      '/dashboard/sign-in',
    );
    assert.equal(evil.location, '/dashboard');
  });
});

describe('dashboard cookies behind https', () => {
  test('session.security: cookies are Secure when PUBLIC_URL is https', async () => {
    const server = await startServer({ env: { PUBLIC_URL: 'https://sounds.example.com' } });
    try {
      const client = new WebClient(server.url, ownAddress());
      const response = await client.signUp(uniqueEmail());
      const cookies = response.headers.getSetCookie();
      assert.ok(cookies.length > 0);
      for (const cookie of cookies) assert.match(cookie, /; Secure/);
    } finally {
      await server.close();
    }
  });
});
