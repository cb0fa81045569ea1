import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createServices } from '../../../src/wiring.ts';
import { configFor, otherConnection, removeBackend } from '../../helpers/backend.ts';
import { startServe, type ServeProcess } from '../../helpers/process.ts';
import { addSound } from '../../helpers/sounds.ts';
import { csrfToken, WebClient } from '../../dashboard/helpers/web-client.ts';

const PASSWORD = 'correct horse battery staple';
const KEY_IN_PAGE = /value="(sc_[0-9A-Za-z]{49})"/;

/** What the run handed out or typed that must never be written to a log line. */
class Secrets {
  readonly values = new Map<string, string>();

  add(kind: string, value: string | undefined | null): void {
    if (value) this.values.set(value, kind);
  }

  /** An API key, and its parts past the `sc_` prefix and past the display prefix (shown in the dashboard). */
  addKey(kind: string, key: string): void {
    this.add(kind, key);
    this.add(`${kind} after sc_`, key.slice(3));
    this.add(`${kind} after its display prefix`, key.slice(11));
  }

  addSignedUrl(url: string): void {
    this.add('signed URL signature', new URL(url).searchParams.get('sig'));
  }

  /** The browser's cookies: session id, visitor id and the CSRF secret. */
  addCookies(client: WebClient): void {
    for (const [name, value] of client.cookies) this.add(`cookie ${name}`, value);
  }

  found(text: string): string[] {
    return [...this.values].filter(([value]) => text.includes(value)).map(([, kind]) => kind);
  }
}

/** A request written byte for byte on a socket, for what fetch() would refuse to send. */
function rawRequest(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => socket.end(text));
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', (error) => (answer ? resolve(answer) : reject(error)));
    socket.on('close', () => resolve(answer));
  });
}

/**
 * A log line as a reader would see it, with the byte arrays pino writes for Buffers (a parse
 * error's raw packet) turned back into text.
 */
function readable(line: string): string {
  return line.replace(/\{"type":"Buffer","data":\[([\d,]*)\]\}/g, (_whole, bytes: string) =>
    Buffer.from(bytes ? bytes.split(',').map(Number) : []).toString('latin1'),
  );
}

describe('hardening: secrets never reach the logs, error bodies or the API document', () => {
  let dataDir: string;
  let server: ServeProcess;
  const secrets = new Secrets();
  /** Every refusal, with the path asked for (or, for MCP, the arguments the client wrote). */
  const failures: Array<{ what: string; path: string; status: number; body: string }> = [];
  let openapi = '';
  const placeholderStatuses: Array<{ candidate: string; status: number }> = [];
  let logs = '';
  let keyPrefix = '';

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-secrets-'));
    const admin = await createServices(await configFor(dataDir));
    const ids = [
      (await addSound(admin, { name: 'Secret Door' })).id,
      (await addSound(admin, { name: 'Secret Bell' })).id,
    ];
    server = await startServe({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', LOG_LEVEL: 'trace' });
    const base = server.url;
    try {
      const call = async (what: string, pathAndQuery: string, init: RequestInit = {}) => {
        const response = await fetch(base + pathAndQuery, { redirect: 'manual', ...init });
        const body = await response.text();
        if (response.status >= 400)
          failures.push({ what, path: pathAndQuery.split('?')[0]!, status: response.status, body });
        return { status: response.status, body, headers: response.headers };
      };
      const withKey = (key: string, headers: Record<string, string> = {}) => ({
        headers: { 'x-api-key': key, ...headers },
      });

      // An API customer: a key made by the operator (CLI-side services), used well and badly.
      const customer = await admin.accounts.createAccount('api-customer@example.com', 'pro');
      const { key } = await admin.accounts.createKey(customer.id, 'server');
      secrets.addKey('API key', key);
      keyPrefix = key.slice(0, 11);
      assert.equal((await call('search', '/api/v1/sounds?q=secret', withKey(key))).status, 200);
      for (const id of ids) {
        for (const kind of ['stream', 'download']) {
          const { body } = await call(`${kind} URL`, `/api/v1/sounds/${id}/${kind}`, withKey(key));
          const url = JSON.parse(body).data[`${kind}_url`] as string;
          secrets.addSignedUrl(url);
          const media = url.slice(url.indexOf('/media/'));
          assert.equal((await call('media', media)).status, 200);
          assert.equal((await call('media range', media, { headers: { range: 'bytes=0-9' } })).status, 206);
          assert.equal((await call('media head', media, { method: 'HEAD' })).status, 200);
          assert.equal(
            (await call('media moved to another sound', media.replace(id, id === ids[0] ? ids[1]! : ids[0]!))).status,
            403,
          );
          // The signature's first letter changed to another: a fixed '_' left one signature in 64 unchanged.
          const changed = media.replace(/sig=(.)/, (_whole, first: string) => `sig=${first === '_' ? '-' : '_'}`);
          assert.equal((await call('media with a changed signature', changed)).status, 403);
        }
      }
      const rendition = JSON.parse(
        (await call('rendition URL', `/api/v1/sounds/${ids[0]}/stream?trim=true`, withKey(key))).body,
      ).data.stream_url as string;
      secrets.addSignedUrl(rendition);

      // The key in every wrong place a client might put it.
      const badForms: Array<[string, string, RequestInit]> = [
        ['bearer', '/api/v1/sounds', { headers: { authorization: `Bearer ${key}` } }],
        ['bearer in x-api-key', '/api/v1/sounds', withKey(`Bearer ${key}`)],
        ['key with a changed letter', '/api/v1/sounds', withKey(key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'))],
        ['key twice', '/api/v1/sounds', withKey(`${key}, ${key}`)],
        ['key and more', '/api/v1/sounds', withKey(`${key}x`)],
        ['key in the query', `/api/v1/sounds?api_key=${key}`, {}],
        ['key in a cookie', '/api/v1/sounds', { headers: { cookie: `x-api-key=${key}` } }],
        ['key in the path', `/api/v1/sounds/${key}`, withKey(key)],
        ['key percent-encoded in the path', `/api/v1/sounds/sc%5F${key.slice(3)}`, withKey(key)],
        ['key as a sound id', `/api/v1/sounds/${key}/stream`, withKey(key)],
        ['key as a search parameter', `/api/v1/sounds?sort=${key}`, withKey(key)],
        ['key as a number', `/api/v1/sounds?per_page=${key}`, withKey(key)],
        ['key on an unknown route', `/api/v1/${key}?key=${key}`, withKey(key)],
        ['key as a media id', `/media/${key}.mp3?d=stream&exp=9999999999&kid=x&sig=${key}`, {}],
        ['key on MCP GET', '/mcp', withKey(key)],
      ];
      for (const [what, pathAndQuery, init] of badForms) {
        const { status } = await call(what, pathAndQuery, init);
        assert.ok(status >= 400, `${what}: ${status}`);
      }
      // Bytes that are not HTTP, and headers too large, with the key among them: refused by Node
      // before any route, and logged (at debug) with what was read of the request.
      const broken = await rawRequest(
        base,
        `GET /api/v1/sounds HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nBad Header: x\r\n\r\n`,
      );
      assert.match(broken, /^HTTP\/1\.1 400/);
      failures.push({ what: 'malformed request', path: '/api/v1/sounds', status: 400, body: broken });
      const huge = await rawRequest(
        base,
        `GET /api/v1/sounds HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nx-padding: ${'p'.repeat(64 * 1024)}\r\n\r\n`,
      );
      assert.match(huge, /^HTTP\/1\.1 431/);
      failures.push({ what: 'headers too large', path: '/api/v1/sounds', status: 431, body: huge });

      // An MCP session (stateless: each POST stands alone), with a signed URL in a tool's answer.
      const mcp = (body: unknown, headers: Record<string, string> = withKey(key).headers) =>
        call('mcp', '/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'secrets-test', version: '1' } },
      };
      assert.equal((await mcp(initialize)).status, 200);
      assert.equal((await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
      assert.equal(
        (
          await mcp({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'search_sounds', arguments: { q: 'secret' } },
          })
        ).status,
        200,
      );
      const tool = await mcp({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'get_download_url', arguments: { id: ids[1] } },
      });
      for (const url of tool.body.match(/https?:\/\/[^"\\\s]+\/media\/[^"\\\s]+/g) ?? []) secrets.addSignedUrl(url);
      assert.ok((tool.body.match(/sig=/g) ?? []).length > 0, 'the tool answered a signed URL');
      const unknown = await mcp({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'get_sound', arguments: { id: key } },
      });
      assert.equal(unknown.status, 200);
      assert.match(unknown.body, /"isError":true/);
      failures.push({
        what: 'MCP get_sound with the key as id',
        path: `get_sound ${key}`,
        status: 200,
        body: unknown.body,
      });
      assert.equal((await mcp(initialize, withKey(`${key}x`).headers)).status, 401);
      assert.equal((await mcp(initialize, { authorization: `Bearer ${key}` })).status, 401);
      assert.ok(
        (
          await call('mcp bad json', '/mcp', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: `{"key":"${key}"`,
          })
        ).status >= 400,
      );

      // The dashboard: sign up, sign out, sign in, fail to, forms with and without their token, a key made and revoked.
      const email = 'dashboard-user@example.com';
      const browser = new WebClient(base);
      const page = async (pathname: string) => {
        const answer = await browser.get(pathname);
        secrets.addCookies(browser);
        for (const [, token] of answer.text.matchAll(/name="_csrf" value="([^"]+)"/g)) secrets.add('CSRF token', token);
        if (answer.status >= 400)
          failures.push({
            what: `GET ${pathname}`,
            path: pathname.split('?')[0]!,
            status: answer.status,
            body: answer.text,
          });
        return answer;
      };
      const post = async (pathname: string, fields: Record<string, string>, from?: string) => {
        const token = from === undefined ? undefined : csrfToken((await page(from)).text);
        const answer = await browser.post(pathname, token === undefined ? fields : { _csrf: token, ...fields });
        secrets.addCookies(browser);
        if (answer.status >= 400)
          failures.push({ what: `POST ${pathname}`, path: pathname, status: answer.status, body: answer.text });
        return answer;
      };
      secrets.add('password', PASSWORD);
      secrets.add('wrong password', `${PASSWORD} wrong`);
      assert.equal((await post('/dashboard/sign-up', { email, password: PASSWORD }, '/dashboard/sign-up')).status, 303);
      assert.equal((await page('/dashboard')).status, 200);
      assert.equal((await post('/dashboard/sign-out', {}, '/dashboard')).status, 303);
      assert.equal(
        (await post('/dashboard/sign-in', { email, password: `${PASSWORD} wrong` }, '/dashboard/sign-in')).status,
        401,
      );
      assert.equal((await post('/dashboard/sign-in', { email, password: PASSWORD })).status, 403, 'no token');
      assert.equal(
        (await post('/dashboard/sign-in', { email, password: PASSWORD, _csrf: 'A'.repeat(52) })).status,
        403,
        'a made-up token',
      );
      assert.equal((await post('/dashboard/sign-in', { email, password: PASSWORD }, '/dashboard/sign-in')).status, 303);
      await admin.accounts.setPlan(email, 'pro');
      const created = await post('/dashboard/keys', { name: 'from the dashboard' }, '/dashboard/keys');
      assert.equal(created.status, 201);
      const dashboardKey = KEY_IN_PAGE.exec(created.text)![1]!;
      secrets.addKey('dashboard API key', dashboardKey);
      assert.equal((await call('dashboard key works', '/api/v1/sounds', withKey(dashboardKey))).status, 200);
      assert.equal((await post('/dashboard/keys', { name: 'x'.repeat(61) }, '/dashboard/keys')).status, 400);
      assert.equal((await post('/dashboard/keys', { name: 'planted', _csrf: 'forged' })).status, 403);
      assert.equal((await page(`/dashboard/keys/${dashboardKey.slice(0, 11)}/revoke`)).status, 200);
      assert.equal((await page(`/dashboard/keys/${dashboardKey}/revoke`)).status, 404);
      assert.equal((await post(`/dashboard/keys/${dashboardKey}/revoke`, {}, '/dashboard/keys')).status, 404);
      assert.equal(
        (await post(`/dashboard/keys/${dashboardKey.slice(0, 11)}/revoke`, {}, '/dashboard/keys')).status,
        303,
      );
      assert.equal((await call('revoked key', '/api/v1/sounds', withKey(dashboardKey))).status, 401);
      assert.equal((await page(`/dashboard/no-such-page?key=${dashboardKey}`)).status, 404);
      const stolen = new WebClient(base);
      stolen.cookies.set('sc_session', 'B'.repeat(43));
      assert.equal((await stolen.get('/dashboard/keys')).status, 303, 'an unknown session id is sent to sign in');

      // A plan without API access: 403.
      await admin.accounts.setPlan('api-customer@example.com', 'free');
      assert.equal((await call('free plan', '/api/v1/sounds', withKey(key))).status, 403);
      await admin.accounts.setPlan('api-customer@example.com', 'pro');

      // The API document, and whether any key-looking example in it opens the API.
      openapi = (await call('openapi', '/openapi.json')).body;
      const candidates = new Set(openapi.match(/sc_[0-9A-Za-z_.…-]*/g) ?? []);
      for (const candidate of candidates) {
        placeholderStatuses.push({
          candidate,
          status: (await call('openapi example as a key', '/api/v1/sounds', withKey(candidate))).status,
        });
      }

      // The generated signing and CSRF secrets, from the database where they are kept.
      const database = await otherConnection(dataDir);
      const stored = await database.all<{ name: string; value: string }>('SELECT name, value FROM secrets');
      await database.close();
      assert.deepEqual(stored.map((row) => row.name).sort(), ['csrf', 'signing']);
      for (const { name, value } of stored) secrets.add(`${name} secret`, value);
    } finally {
      await server.stop();
      await admin.close();
      // The exit can come before the last of standard error has been read.
      const stderr = server.child.stderr!;
      if (!stderr.readableEnded) await new Promise((resolve) => stderr.once('end', resolve));
      logs = server.stderr();
    }
  });

  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir);
  });

  test('secrets.run: the run logged every request, at trace level, including the refused ones', () => {
    const entries = logs
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const paths = new Set(entries.map((entry) => entry.path));
    for (const expected of ['/api/v1/sounds', '/mcp', '/dashboard/sign-in', '/dashboard/keys', '/openapi.json'])
      assert.ok(paths.has(expected), expected);
    assert.ok(
      [...paths].some((p) => typeof p === 'string' && p.startsWith('/media/')),
      'media requests are logged',
    );
    assert.ok(
      entries.some((entry) => entry.status === 401) && entries.some((entry) => entry.status === 403),
      'refusals are logged',
    );
    assert.ok(
      entries.some((entry) => entry.msg === 'client error'),
      'the malformed request was logged',
    );
    assert.ok(
      entries.some((entry) => entry.path === `/api/v1/sounds/${keyPrefix}…`),
      'a path with a key is logged with the key cut to its display prefix',
    );
    assert.ok(secrets.values.size >= 20, `${secrets.values.size} secrets collected`);
  });

  test(
    'secrets.logs: no log line holds an API key (or its secret part), a session or ' +
      'visitor id, a CSRF token or secret, a password, a signing secret or a URL signature',
    () => {
      const leaks = logs
        .split('\n')
        .flatMap((line) => secrets.found(readable(line)).map((kind) => `${kind}: ${line.slice(0, 400)}`));
      assert.deepEqual(leaks, []);
    },
  );

  /** What a refusal says, without the CSRF token a dashboard page carries for its own forms. */
  const echoesIn = (failure: { what: string; status: number; body: string }) =>
    secrets
      .found(failure.body.replace(/name="_csrf" value="[^"]*"/g, ''))
      .map((kind) => `${failure.what} (${failure.status}) echoes the ${kind}: ${failure.body.slice(0, 300)}`);

  test(
    'secrets.error-bodies: no refusal echoes a key, a ' + 'session or visitor id, a token, a password or a signature',
    () => {
      assert.ok(failures.length >= 25, `${failures.length} failures seen`);
      const echoes = failures.filter((failure) => secrets.found(failure.path).length === 0).flatMap(echoesIn);
      assert.deepEqual(echoes, []);
    },
  );

  test('secrets.error-bodies.path: a 404 for a path the client wrote its key into does not repeat the key', () => {
    const echoes = failures.filter((failure) => secrets.found(failure.path).length > 0).flatMap(echoesIn);
    assert.deepEqual(echoes, []);
  });

  test(
    'secrets.openapi: the API document holds no real key, ' + 'and a key-like example in it is refused by the API',
    () => {
      assert.ok(openapi.includes('"openapi":"3.1.0"'));
      assert.deepEqual(secrets.found(openapi), []);
      for (const { candidate, status } of placeholderStatuses) assert.equal(status, 401, candidate);
    },
  );
});
