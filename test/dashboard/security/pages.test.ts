import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { statusOf } from '../../helpers/http.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { signedIn } from '../helpers/accounts.ts';
import { ownAddress, type WebResponse, WebClient } from '../helpers/web-client.ts';

/** What a page must never contain for `script-src 'self'` and `style-src 'self'` to hold. */
function assertNoInlineCode(page: string, path: string): void {
  for (const tag of page.match(/<script\b[^>]*>/g) ?? [])
    assert.match(tag, /\ssrc="\/dashboard\/assets\//, `${path}: inline script`);
  assert.doesNotMatch(page, /<script\b[^>]*>[^<]+<\/script>/, `${path}: script body`);
  assert.doesNotMatch(page, /\son[a-z]+=/i, `${path}: event handler attribute`);
  assert.doesNotMatch(page, /\sstyle=/i, `${path}: style attribute`);
  assert.doesNotMatch(page, /<style\b/i, `${path}: style element`);
}

function assertSecurityHeaders(response: WebResponse, path: string, origin: string): void {
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'(;|$)/, path);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, path);
  assert.match(csp, /frame-ancestors 'none'/, path);
  assert.match(csp, new RegExp(`media-src 'self' ${origin}`), path);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
  assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
  assert.equal(response.headers.get('referrer-policy'), 'same-origin', path);
}

describe('dashboard pages: security headers, no inline code, escaping', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
    await addSound(server.services, { name: '<script>alert("sound")</script>', sample: true, tags: ['"quoted"'] });
  });
  after(() => server.close());

  test('headers.security: every page, signed out and in, error pages too, carries the headers', async () => {
    const anonymous = new WebClient(server.url, ownAddress());
    const operator = await signedIn(server, 'pro', { operator: true });
    const { record } = await server.services.accounts.createKey(operator.account.id, 'k');
    const pages: Array<[WebClient, string]> = [
      [anonymous, '/'],
      [anonymous, '/dashboard/sign-up'],
      [anonymous, '/dashboard/sign-in'],
      [anonymous, '/dashboard/upgrade'],
      [anonymous, '/dashboard'],
      [anonymous, '/dashboard/no-such-page'],
      [anonymous, '/dashboard/assets/dashboard.css'],
      [operator.client, '/dashboard'],
      [operator.client, '/dashboard/keys'],
      [operator.client, `/dashboard/keys/${record.prefix}/revoke`],
      [operator.client, '/dashboard/catalog'],
      [operator.client, '/dashboard/operator'],
      [operator.client, '/dashboard/upgrade'],
    ];
    const origin = new URL(server.url).origin;
    for (const [client, path] of pages) {
      const response = await client.get(path);
      assertSecurityHeaders(response, path, origin);
      if (response.headers.get('content-type')?.startsWith('text/html')) {
        assertNoInlineCode(response.text, path);
        assert.equal(response.headers.get('cache-control'), 'no-store', path);
      }
    }
    const posted = await anonymous.post('/dashboard/sign-in', {});
    assertSecurityHeaders(posted, 'POST /dashboard/sign-in', origin);
  });

  test('headers.security: media-src also allows a PUBLIC_URL origin that differs from the page', async () => {
    const proxied = await startServer({ env: { PUBLIC_URL: 'https://cdn.sounds.example' } });
    try {
      const response = await new WebClient(proxied.url).get('/');
      assert.match(response.headers.get('content-security-policy')!, /media-src 'self' https:\/\/cdn\.sounds\.example/);
    } finally {
      await proxied.close();
    }
  });

  test('escaping.security: sound names and tags are shown as text, never as markup', async () => {
    const page = (await new WebClient(server.url, ownAddress()).get('/')).text;
    assert.ok(page.includes('&lt;script&gt;alert(&quot;sound&quot;)&lt;/script&gt;'));
    assert.ok(!page.includes('<script>alert'));
    assert.ok(page.includes('&quot;quoted&quot;'));
  });

  test('escaping.security: a key name with markup is escaped on the key pages', async () => {
    const { client } = await signedIn(server, 'pro');
    const created = await client.post('/dashboard/keys', { name: '<img src=x onerror=alert(1)>' }, '/dashboard/keys');
    assert.equal(created.status, 201);
    assert.ok(created.text.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(!created.text.includes('<img src=x'));
  });

  test('assets: the stylesheet, script and icon are served with their types; other names are 404', async () => {
    const expected: Record<string, RegExp> = {
      'dashboard.css': /^text\/css/,
      'phone.css': /^text\/css/,
      'dashboard.js': /^text\/javascript/,
      'icon.svg': /^image\/svg\+xml/,
    };
    for (const [file, type] of Object.entries(expected)) {
      const response = await fetch(`${server.url}/dashboard/assets/${file}`);
      assert.equal(response.status, 200, file);
      assert.match(response.headers.get('content-type')!, type, file);
      assert.equal(
        await statusOf(`${server.url}/dashboard/assets/${file}`, { 'if-none-match': response.headers.get('etag')! }),
        304,
        `${file} revalidates`,
      );
      assert.equal(response.headers.get('cache-control'), 'public, max-age=3600', file);
    }
    assert.equal((await fetch(`${server.url}/dashboard/assets/..%2Fhtml.ts`)).status, 404);
    assert.equal((await fetch(`${server.url}/dashboard/assets/secret.txt`)).status, 404);
  });

  test('pages.a11y: every page has a language, a skip link, one h1 and labelled form fields', async () => {
    const { client } = await signedIn(server, 'pro', { operator: true });
    for (const path of [
      '/',
      '/dashboard',
      '/dashboard/keys',
      '/dashboard/catalog',
      '/dashboard/operator',
      '/dashboard/upgrade',
    ]) {
      const page = (await client.get(path)).text;
      assert.match(page, /<html lang="en">/, path);
      assert.match(page, /<a class="skip-link" href="#main">/, path);
      assert.equal(page.match(/<h1\b/g)?.length, 1, `${path}: one h1`);
      for (const id of [...page.matchAll(/<(?:input|select)\b(?![^>]*type="hidden")[^>]*\sid="([^"]+)"/g)].map(
        (m) => m[1],
      )) {
        assert.match(page, new RegExp(`<label[^>]*for="${id}"`), `${path}: label for #${id}`);
      }
      const unlabelled = [
        ...page.matchAll(/<(?:input|select)\b(?![^>]*type="(?:hidden|checkbox)")(?![^>]*\sid=)[^>]*>/g),
      ];
      assert.deepEqual(
        unlabelled.map((m) => m[0]),
        [],
        `${path}: fields without an id`,
      );
    }
  });
});
