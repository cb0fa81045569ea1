import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { signedIn } from '../helpers/accounts.ts';
import { csrfToken, visibleText } from '../helpers/web-client.ts';

const KEY_PATTERN = /value="(sc_[0-9A-Za-z]{49})"/;

describe('dashboard API keys', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('keys.free: a free account is told why it cannot create keys and what Pro and Enterprise give', async () => {
    const { client, account } = await signedIn(server, 'free');
    const page = await client.get('/dashboard/keys');
    const text = visibleText(page.text);
    assert.equal(page.status, 200);
    assert.match(text, /Your Free plan has no API access/);
    assert.match(text, /Pro \(\$15\/month\): 2,500 requests a day, up to 2 API keys/);
    assert.match(text, /Enterprise \(\$49\/month\): 50,000 requests a day, up to 20 API keys/);
    assert.doesNotMatch(page.text, /action="\/dashboard\/keys"/, 'no create form');
    const forced = await client.post('/dashboard/keys', { name: 'sneaky' }, '/dashboard/keys');
    assert.equal(forced.status, 403);
    assert.match(
      visibleText(forced.text),
      /The Free plan has no API access: upgrade to Pro or Enterprise to create keys\./,
    );
    assert.equal((await server.services.accounts.listKeys(account.id)).length, 0);
  });

  test(
    'keys.create: the full key is shown once with a copy ' + 'button and a warning; the list shows only its prefix',
    async () => {
      const { client } = await signedIn(server, 'pro');
      const created = await client.post('/dashboard/keys', { name: 'Production server' }, '/dashboard/keys');
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('cache-control'), 'no-store');
      const key = KEY_PATTERN.exec(created.text)![1]!;
      assert.match(created.text, /data-copy-from="new-key-value"/);
      assert.match(visibleText(created.text), /Copy it now: it will not be shown again\./);
      const api = await server.get('/api/v1/sounds', { key });
      assert.equal(api.status, 200);

      const list = await client.get('/dashboard/keys');
      assert.ok(!list.text.includes(key), 'the full key is never shown again');
      const text = visibleText(list.text);
      assert.match(text, new RegExp(`Production server ${key.slice(0, 11)}… 15 Jun 2026, 12:00 UTC`));
      assert.match(text, /1 of 2 keys in use on the Pro plan/);
    },
  );

  test('keys.list: last used and per-key request counts follow API use', async () => {
    const { client, account } = await signedIn(server, 'pro');
    const { key, record } = await server.services.accounts.createKey(account.id, 'worker');
    assert.match(visibleText((await client.get('/dashboard/keys')).text), /worker sc_\w+… [\s\S]*? Never 0 0/);
    for (let i = 0; i < 3; i++) assert.equal((await server.get('/api/v1/sounds', { key })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = visibleText((await client.get('/dashboard/keys')).text);
    assert.match(text, new RegExp(`worker ${record.prefix}… 15 Jun 2026, 12:00 UTC 15 Jun 2026, 12:00 UTC 3 3`));
  });

  test('keys.limit: a Pro account gets a clear message at its third key', async () => {
    const { client, account } = await signedIn(server, 'pro');
    for (const name of ['one', 'two'])
      assert.equal((await client.post('/dashboard/keys', { name }, '/dashboard/keys')).status, 201);
    const page = await client.get('/dashboard/keys');
    assert.match(
      visibleText(page.text),
      new RegExp(
        'The Pro plan allows 2 API keys and all of them are in use\\. ' +
          'Revoke one to create another, or move to a bigger plan ?\\.',
      ),
    );
    const third = await client.post('/dashboard/keys', { name: 'three', _csrf: csrfToken(page.text) });
    assert.equal(third.status, 409);
    assert.match(visibleText(third.text), /The Pro plan allows 2 API keys; revoke one to create another\./);
    assert.equal((await server.services.accounts.listKeys(account.id)).length, 2);
  });

  test('keys.limit: an Enterprise account holds 20 keys and no more', async () => {
    const { client, account } = await signedIn(server, 'enterprise');
    for (let i = 0; i < 19; i++) await server.services.accounts.createKey(account.id, `k${i}`);
    assert.equal((await client.post('/dashboard/keys', { name: 'twentieth' }, '/dashboard/keys')).status, 201);
    const page = await client.get('/dashboard/keys');
    assert.match(
      visibleText(page.text),
      /The Enterprise plan allows 20 API keys and all of them are in use\. Revoke one to create another\./,
    );
    const extra = await client.post('/dashboard/keys', { name: 'extra', _csrf: csrfToken(page.text) });
    assert.equal(extra.status, 409);
    assert.equal((await server.services.accounts.listKeys(account.id)).length, 20);
  });

  test('keys.errors: a key needs a name of at most 60 characters', async () => {
    const { client, account } = await signedIn(server, 'pro');
    const blank = await client.post('/dashboard/keys', { name: '   ' }, '/dashboard/keys');
    assert.equal(blank.status, 400);
    assert.match(visibleText(blank.text), /Give the key a name/);
    const long = await client.post('/dashboard/keys', { name: 'x'.repeat(61) }, '/dashboard/keys');
    assert.equal(long.status, 400);
    assert.equal((await server.services.accounts.listKeys(account.id)).length, 0);
  });

  test('keys.revoke: a confirmation step, then the key stops working at once', async () => {
    const { client, account } = await signedIn(server, 'pro');
    const { key, record } = await server.services.accounts.createKey(account.id, 'to revoke');
    assert.equal((await server.get('/api/v1/sounds', { key })).status, 200);
    const list = await client.get('/dashboard/keys');
    assert.match(list.text, new RegExp(`href="/dashboard/keys/${record.prefix}/revoke"`));
    const confirm = await client.get(`/dashboard/keys/${record.prefix}/revoke`);
    assert.equal(confirm.status, 200);
    assert.match(visibleText(confirm.text), /Revoke “to revoke”\? .* stops working at once/);
    assert.equal(
      (await server.get('/api/v1/sounds', { key })).status,
      200,
      'looking at the confirmation revokes nothing',
    );
    const revoked = await client.post(`/dashboard/keys/${record.prefix}/revoke`, { _csrf: csrfToken(confirm.text) });
    assert.equal(revoked.status, 303);
    assert.equal(revoked.location, `/dashboard/keys?revoked=${record.prefix}`);
    assert.equal((await server.get('/api/v1/sounds', { key })).status, 401);
    const after = visibleText((await client.get(revoked.location!)).text);
    assert.match(after, new RegExp(`Key ${record.prefix}… is revoked`));
    assert.match(after, /No keys yet/);
  });

  test("keys.revoke: another account's key cannot be revoked or even confirmed", async () => {
    const owner = await signedIn(server, 'pro');
    const other = await signedIn(server, 'pro');
    const { key, record } = await server.services.accounts.createKey(owner.account.id, 'not yours');
    assert.equal((await other.client.get(`/dashboard/keys/${record.prefix}/revoke`)).status, 404);
    const attempt = await other.client.post(`/dashboard/keys/${record.prefix}/revoke`, {}, '/dashboard/keys');
    assert.equal(attempt.status, 404);
    assert.equal((await server.get('/api/v1/sounds', { key })).status, 200);
  });

  test('keys.auth: signed-out visitors are sent to sign in, and back afterwards', async () => {
    const response = await fetch(`${server.url}/dashboard/keys`, { redirect: 'manual' });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/dashboard/sign-in?next=%2Fdashboard%2Fkeys');
  });
});
