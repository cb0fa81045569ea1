import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { signedIn } from '../../dashboard/helpers/accounts.ts';
import { csrfToken, WebClient } from '../../dashboard/helpers/web-client.ts';
import {
  assertClean,
  describeRequest,
  fuzzHeaders,
  fuzzSettings,
  rawRequest,
  wireQuery,
  wireSegment,
  wireValue,
  type RawRequest,
  type RawResponse,
} from './fuzz-helpers.ts';

/**
 * The dashboard's forms and pages with arbitrary input, as a browser, as no browser at all, and
 * as an attacker: any fields, any bytes, any content type, with or without a session, with the
 * right CSRF token, another visitor's, a forged one or none. Never a 5xx or a page with internals;
 * without the right token nothing changes (never a 2xx or a redirect); every redirect stays on
 * this site.
 */

/**
 * Every status the dashboard answers a form or page with: done, created, moved, refused, throttled
 * (a sign-in or sign-up limit, or the daily quota), busy (every password-hashing place taken).
 */
const DASHBOARD_STATUSES = [200, 201, 303, 400, 401, 403, 404, 409, 413, 415, 429, 503];
/**
 * What a POST without the right token may get: the body refused before the check, the check's 403,
 * or 404 for a path the router cannot read (a fuzzed key prefix).
 */
const REFUSED = [400, 403, 404, 413, 415];
/** Forms that end the session they are sent with, when they succeed: the fuzz signs in again after them. */
const SESSION_ENDING = ['/dashboard/sign-up', '/dashboard/sign-in', '/dashboard/sign-out'];

type Who = 'nobody' | 'visitor' | 'member' | 'operator';

interface Identity {
  cookies: string;
  token: string;
}

/** The dashboard's forms and their fields; the fuzz sends each as anyone. PREFIX is a key prefix, ID a sound's id. */
interface Form {
  path: string;
  fields: string[];
}

const FORMS: Form[] = [
  { path: '/dashboard/sign-up', fields: ['email', 'password'] },
  { path: '/dashboard/sign-in', fields: ['email', 'password', 'next'] },
  { path: '/dashboard/sign-out', fields: [] },
  { path: '/dashboard/keys', fields: ['name'] },
  { path: '/dashboard/keys/PREFIX/revoke', fields: [] },
  { path: '/dashboard/operator/plan', fields: ['account_id', 'plan'] },
  { path: '/dashboard/download/ID', fields: ['loudness', 'trim'] },
];

/** Text a form field may hold: anything a person or a script types, NUL and lone surrogates included. */
const fieldText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.emailAddress() },
  // MEMBER stands for the signed-in member's account id (the operator's form changes its plan).
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'MEMBER',
      'a@b.co',
      'correct horse battery',
      ' x@example.com ',
      `${'x'.repeat(255)}@example.com`,
      'pro',
      'enterprise',
      'free',
      'operator',
      '/dashboard',
      '/dashboard/keys',
      '//evil.example',
      'https://evil.example/',
      '/dashboard/../..',
      '/\\evil.example',
      'javascript:alert(1)',
      '<script>x</script>',
      '\u0000',
      '\r\nSet-Cookie: x=1',
    ),
  },
  // Two bytes a character: past 8 Ki characters a form is over the dashboard's 16 KiB body limit.
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 12_000 }).map((size) => 'é'.repeat(size)) },
);

describe('fuzz: the dashboard', () => {
  let server: TestServer;
  const identities = new Map<Who, Identity>();
  let soundId: string;
  let accountIds: string[];
  let keyPrefix: string;

  /** The browser's cookies and one CSRF token of its forms, read from a page as a browser would. */
  async function identityOf(client: WebClient, page: string): Promise<Identity> {
    const token = csrfToken((await client.get(page)).text);
    return { cookies: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '), token };
  }

  const emails = new Map<Who, string>();

  /** Signs the member or the operator in again, in a browser of its own. */
  async function signInAgain(as: 'member' | 'operator') {
    const client = new WebClient(server.url);
    const response = await client.signIn(emails.get(as)!);
    assert.equal(response.status, 303, `signing the ${as} in again`);
    identities.set(as, await identityOf(client, as === 'member' ? '/dashboard/keys' : '/dashboard/operator'));
  }

  before(async () => {
    server = await startServer();
    soundId = (await addSound(server.services, { name: 'Laser Zap', tags: ['laser'], sample: true })).id;
    const visitor = new WebClient(server.url);
    identities.set('visitor', await identityOf(visitor, '/dashboard/sign-in'));
    const member = await signedIn(server, 'enterprise');
    identities.set('member', await identityOf(member.client, '/dashboard/keys'));
    const operator = await signedIn(server, 'pro', { operator: true });
    identities.set('operator', await identityOf(operator.client, '/dashboard/operator'));
    identities.set('nobody', { cookies: '', token: '' });
    emails.set('member', member.email).set('operator', operator.email);
    accountIds = [member.account.id, operator.account.id];
    keyPrefix = (await server.services.accounts.createKey(member.account.id, 'kept')).record.prefix;
  });
  after(() => server.close());

  /** Sign-ins and sign-ups are throttled per address; clear their log so every run reaches the form's own checks. */
  const forgetFailures = () => server.services.database.db.deleteFrom('dashboard_sign_in_failures').execute();

  /** The checks of every dashboard answer; a redirect goes to a path on this site or to this site's media URLs. */
  function assertDashboardAnswer(response: RawResponse, allowed: number[], context: string) {
    assertClean(response, allowed, context);
    const location = response.headers.location;
    if (location === undefined) return;
    const onSite = /^\/(?![/\\])/.test(location) || location.startsWith(`${server.url}/media/`);
    assert.ok(onSite, `a redirect off the site: ${location} ${context}`);
  }

  const who = fc.constantFrom<Who>('nobody', 'visitor', 'member', 'operator');
  /** The token sent: this browser's own, another's, a forged one, or none. */
  const tokenKind = fc.oneof(
    { weight: 3, arbitrary: fc.constant('own' as const) },
    fc.constantFrom('other' as const, 'forged' as const, 'none' as const),
  );

  test(
    'fuzz.dashboard.forms: any fields to any form, as anyone, with ' +
      'any token: never a 5xx; without the right token nothing happens',
    async () => {
      // Mostly the form's own fields (each may be missing), sometimes others besides.
      const fields = (form: Form) =>
        fc
          .tuple(
            fc.record(Object.fromEntries(form.fields.map((name) => [name, fieldText])), { requiredKeys: [] }),
            fc.dictionary(fc.oneof(fc.constantFrom('_csrf', 'email', 'x'), fc.string({ maxLength: 8 })), fieldText, {
              maxKeys: 3,
            }),
          )
          .map(([own, extra]) => ({ ...extra, ...own }));
      const run = fc
        .constantFrom(...FORMS)
        .chain((form) =>
          fc.tuple(
            fc.constant(form),
            fields(form),
            who,
            tokenKind,
            fc.constantFrom('', 'KEPT', 'sc_AAAAAAAA'),
            wireSegment,
          ),
        );
      await fc.assert(
        fc.asyncProperty(
          run,
          fc.string({ maxLength: 40 }),
          async ([form, given, as, tokenSent, prefixChoice, segment], forged) => {
            await forgetFailures();
            const identity = identities.get(as)!;
            const others = [...identities.entries()].filter(([name]) => name !== as && name !== 'nobody');
            const token = { own: identity.token, other: others[0]![1].token, forged, none: undefined }[tokenSent];
            const body = new URLSearchParams(
              Object.entries(given)
                .filter((entry): entry is [string, string] => entry[0] !== '_csrf' && entry[1] !== undefined)
                .map(([name, value]) => [name, value === 'MEMBER' ? accountIds[0]! : value]),
            );
            if (token !== undefined) body.set('_csrf', token);
            const path = form.path
              .replace('PREFIX', prefixChoice === '' ? segment : prefixChoice === 'KEPT' ? keyPrefix : prefixChoice)
              .replace('ID', soundId);
            const request: RawRequest = {
              method: 'POST',
              target: path,
              body: body.toString(),
              headers: [
                ['content-type', 'application/x-www-form-urlencoded'],
                ...(identity.cookies ? [['cookie', identity.cookies] as [string, string]] : []),
              ],
            };
            const context =
              `${describeRequest(request)} as ${as} with ` + `${tokenSent} token: ${body.toString().slice(0, 200)}`;
            const downloads = async () => (await server.services.catalog.findById(soundId))!.numDownloads;
            const downloadsBefore = await downloads();
            const response = await rawRequest(server.url, request);
            const rightToken = tokenSent === 'own' && as !== 'nobody';
            if (!rightToken) assert.equal(await downloads(), downloadsBefore, `a download was counted: ${context}`);
            assertDashboardAnswer(response, rightToken ? DASHBOARD_STATUSES : REFUSED, context);
            if ((as === 'member' || as === 'operator') && response.status === 303 && SESSION_ENDING.includes(form.path))
              await signInAgain(as);
            // The member's key is revoked only by the member's own form with the member's own token.
            const kept = (await server.services.accounts.listKeys(accountIds[0]!)).some(
              (key) => key.prefix === keyPrefix,
            );
            if (!(rightToken && as === 'member')) assert.ok(kept, `a key was revoked: ${context}`);
            if (!kept) keyPrefix = (await server.services.accounts.createKey(accountIds[0]!, 'kept')).record.prefix;
          },
        ),
        fuzzSettings(300),
      );
    },
  );

  test(
    'fuzz.dashboard.bodies: any bytes under any content type ' +
      'get a page, never a 5xx; a token in the query does not count',
    async () => {
      const contentType = fc.constantFrom(
        'application/x-www-form-urlencoded',
        'application/x-www-form-urlencoded; charset=latin1',
        'application/json',
        'text/plain',
        'multipart/form-data; boundary=x',
        'application/xml',
        '',
      );
      const bytes = fc.oneof(
        wireQuery(['email', 'password', 'name', 'next', '_csrf', 'account_id', 'plan']).map((text) =>
          Buffer.from(text, 'latin1'),
        ),
        fc.uint8Array({ maxLength: 300 }).map((array) => Buffer.from(array)),
        fc
          .constantFrom(
            '{"email":"a@b.co"}',
            '{',
            '_csrf=%',
            'email=%zz&password=%C0%AF',
            'a=1&a=2&a=3',
            '&&&===',
            '\u0000=\u0000',
          )
          .map((text) => Buffer.from(text)),
        fc.integer({ min: 10 * 1024, max: 80 * 1024 }).map((size) => Buffer.from(`name=${'n'.repeat(size)}`)),
      );
      const tokenIn = fc.constantFrom('header', 'query');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...FORMS),
          who,
          contentType,
          bytes,
          tokenIn,
          async (form, as, type, body, place) => {
            await forgetFailures();
            const identity = identities.get(as)!;
            const query = place === 'query' ? `?_csrf=${encodeURIComponent(identity.token)}` : '';
            const request: RawRequest = {
              method: 'POST',
              target: `${form.path.replace('PREFIX', 'sc_AAAAAAAA').replace('ID', soundId)}${query}`,
              body,
              headers: [
                ...(type ? [['content-type', type] as [string, string]] : []),
                ...(place === 'header' ? [['csrf-token', identity.token] as [string, string]] : []),
                ...(identity.cookies ? [['cookie', identity.cookies] as [string, string]] : []),
              ],
            };
            const context = `${describeRequest(request)} as ${as}: ${body.subarray(0, 120).toString('latin1')}`;
            const response = await rawRequest(server.url, request);
            // The plugin reads the token from the body or a header, never from the query.
            const rightToken = as !== 'nobody' && (place === 'header' || body.includes(identity.token));
            assertDashboardAnswer(response, rightToken ? DASHBOARD_STATUSES : REFUSED, context);
            if ((as === 'member' || as === 'operator') && response.status === 303 && SESSION_ENDING.includes(form.path))
              await signInAgain(as);
          },
        ),
        fuzzSettings(200),
      );
    },
  );

  test(
    'fuzz.dashboard.csrf-header: a form with the right token ' +
      'in the csrf-token header is taken, a wrong one refused',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...FORMS.filter((form) => form.path !== '/dashboard/sign-out')),
          who,
          tokenKind,
          fc.string({ maxLength: 60 }),
          async (form, as, tokenSent, forged) => {
            await forgetFailures();
            const identity = identities.get(as)!;
            const token = {
              own: identity.token,
              other: identities.get(as === 'member' ? 'visitor' : 'member')!.token,
              forged,
              none: undefined,
            }[tokenSent];
            const request: RawRequest = {
              method: 'POST',
              target: form.path.replace('PREFIX', 'sc_AAAAAAAA').replace('ID', soundId),
              body: 'name=x&email=x&password=x',
              headers: [
                ['content-type', 'application/x-www-form-urlencoded'],
                ...(token !== undefined ? [['csrf-token', token] as [string, string]] : []),
                ...(identity.cookies ? [['cookie', identity.cookies] as [string, string]] : []),
              ],
            };
            const rightToken = tokenSent === 'own' && as !== 'nobody';
            const response = await rawRequest(server.url, request);
            assertDashboardAnswer(
              response,
              rightToken ? DASHBOARD_STATUSES : REFUSED,
              `${describeRequest(request)} as ${as} with ${tokenSent}`,
            );
            if ((as === 'member' || as === 'operator') && response.status === 303 && SESSION_ENDING.includes(form.path))
              await signInAgain(as);
          },
        ),
        fuzzSettings(100),
      );
    },
  );

  test(
    'fuzz.dashboard.cookies: any cookies (forged sessions, ' +
      'broken CSRF secrets) get a page or a redirect to sign-in',
    async () => {
      const cookie = fc
        .array(
          fc.tuple(
            fc.constantFrom('sc_session', 'sc_visitor', '_csrf', 'x'),
            fc.oneof(wireValue, fc.constantFrom('A'.repeat(43), '', '"', 'a;b')),
          ),
          { maxLength: 5 },
        )
        .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('; '));
      const page = fc.constantFrom(
        '/',
        '/dashboard',
        '/dashboard/keys',
        '/dashboard/sign-in',
        '/dashboard/sign-up',
        '/dashboard/catalog',
        '/dashboard/operator',
        '/dashboard/upgrade',
      );
      await fc.assert(
        fc.asyncProperty(page, cookie, fc.constantFrom('GET', 'POST'), async (path, cookies, method) => {
          const request: RawRequest = {
            method,
            target: path,
            headers: [
              ['cookie', cookies],
              ['content-type', 'application/x-www-form-urlencoded'],
            ],
            body: method === 'POST' ? 'name=x' : undefined,
          };
          const response = await rawRequest(server.url, request);
          // A POST on a page with no form is no route (404); every POST needs a token none of these has.
          assertDashboardAnswer(
            response,
            method === 'GET' ? [200, 303, 403] : [...REFUSED, 404],
            describeRequest(request),
          );
        }),
        fuzzSettings(150),
      );
    },
  );

  test(
    'fuzz.dashboard.pages: any query or path on the pages, ' +
      'signed in or not, gets a page or a redirect on this site',
    async () => {
      const page = fc.oneof(
        wireQuery([
          'q',
          'tags',
          'category',
          'min_duration',
          'max_duration',
          'max_onset_ms',
          'min_lufs',
          'max_lufs',
          'sort',
          'order',
          'page',
        ]).map((query) => `/dashboard/catalog?${query}`),
        wireQuery(['q', 'tags']).map((query) => `/?${query}`),
        wireQuery(['next']).map((query) => `/dashboard/sign-in?${query}`),
        wireQuery(['revoked']).map((query) => `/dashboard/keys?${query}`),
        wireQuery(['q', 'updated']).map((query) => `/dashboard/operator?${query}`),
        fc
          .tuple(fc.oneof(fc.constant('ID'), wireSegment), wireQuery(['loudness', 'trim']))
          .map(([id, query]) => `/dashboard/download/${id}?${query}`),
        fc.oneof(fc.constant('ID'), wireSegment).map((id) => `/dashboard/catalog/similar/${id}`),
        wireSegment.map((prefix) => `/dashboard/keys/${prefix}/revoke`),
        wireSegment.map((segment) => `/dashboard/${segment}`),
      );
      await fc.assert(
        fc.asyncProperty(page, who, async (target, as) => {
          const identity = identities.get(as)!;
          const request: RawRequest = {
            target: target.replace('ID', soundId),
            headers: identity.cookies ? [['cookie', identity.cookies]] : [],
          };
          // A download's GET only says to use the button (405); past the daily quota a search is 429.
          assertDashboardAnswer(
            await rawRequest(server.url, request),
            [200, 303, 400, 403, 404, 405, 429],
            describeRequest(request),
          );
        }),
        fuzzSettings(300),
      );
    },
  );

  test('fuzz.dashboard.headers: any ordinary headers on the pages get a page, never a 5xx', async () => {
    const page = fc.constantFrom(
      '/',
      '/dashboard',
      '/dashboard/keys',
      '/dashboard/sign-in',
      '/dashboard/catalog?q=laser',
      '/dashboard/assets/dashboard.css',
    );
    await fc.assert(
      fc.asyncProperty(page, who, fuzzHeaders, async (path, as, headers) => {
        const identity = identities.get(as)!;
        // A fuzzed cookie header comes after the browser's own and is joined to it by the parser.
        const request: RawRequest = {
          target: path,
          headers: [...(identity.cookies ? [['cookie', identity.cookies] as [string, string]] : []), ...headers],
        };
        // The stylesheet is a static file: a Range header may give 206, or 416 when it cannot be met.
        const allowed = path.startsWith('/dashboard/assets/') ? [200, 206, 304, 412, 416] : [200, 303, 304, 403, 404];
        assertDashboardAnswer(await rawRequest(server.url, request), allowed, describeRequest(request));
      }),
      fuzzSettings(150),
    );
  });

  test('fuzz.dashboard.alive: the member is still signed in and sees every active key', async () => {
    const { cookies } = identities.get('member')!;
    const keys = await rawRequest(server.url, { target: '/dashboard/keys', headers: [['cookie', cookies]] });
    assert.equal(keys.status, 200);
    for (const key of await server.services.accounts.listKeys(accountIds[0]!))
      assert.ok(keys.body.includes(key.prefix), key.prefix);
  });
});
