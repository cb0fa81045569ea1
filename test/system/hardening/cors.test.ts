import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';

const ORIGIN = 'https://player.example.org';

describe('cors: which paths another site may fetch', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let mediaPath: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    ({ id } = await addSound(server.services, { name: 'Laser Zap', tags: ['laser'], sample: true }));
    const stream = await server.get(`/api/v1/sounds/sample/${id}/stream`);
    const url = new URL(((await stream.json()) as { data: { stream_url: string } }).data.stream_url);
    mediaPath = url.pathname + url.search;
  });
  after(() => server.close());

  const fromPage = (path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    fetch(server.url + path, {
      method: options.method ?? 'GET',
      headers: { origin: ORIGIN, ...options.headers },
      body: options.body,
    });

  const preflight = (path: string, method: string, requestHeaders?: string) =>
    fetch(server.url + path, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': method,
        ...(requestHeaders && { 'access-control-request-headers': requestHeaders }),
      },
    });

  test(
    "cors.public: samples, a sample's stream link, the media file " +
      'and the OpenAPI document answer any origin, without credentials',
    async () => {
      const publicPaths = [
        '/api/v1/sounds/sample?limit=3',
        `/api/v1/sounds/sample/${id}/stream`,
        mediaPath,
        '/openapi.json',
        '/openapi.yaml',
      ];
      for (const path of publicPaths) {
        const response = await fromPage(path);
        assert.equal(response.status, 200, path);
        assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
        assert.equal(response.headers.get('access-control-allow-credentials'), null, path);
        assert.match(response.headers.get('access-control-expose-headers') ?? '', /X-Request-Id/, path);
        await response.arrayBuffer();
      }
      // A page can read a media range and the rendition's figures.
      const range = await fromPage(mediaPath, { headers: { range: 'bytes=0-99' } });
      assert.equal(range.status, 206);
      assert.equal(range.headers.get('access-control-allow-origin'), '*');
      for (const name of ['Content-Range', 'Accept-Ranges', 'X-Integrated-LUFS'])
        assert.match(range.headers.get('access-control-expose-headers')!, new RegExp(name));
      await range.arrayBuffer();
      // Refusals on public paths are readable by the page too.
      const missing = await fromPage('/api/v1/sounds/sample/0000000000000000/stream');
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('access-control-allow-origin'), '*');
      const altered = await fromPage(mediaPath.replace(/sig=[^&]+/, 'sig=AAAA'));
      assert.equal(altered.status, 403);
      assert.equal(altered.headers.get('access-control-allow-origin'), '*');
    },
  );

  test(
    'cors.preflight: public paths answer a preflight for GET ' +
      'with the media headers; private ones get no CORS answer',
    async () => {
      for (const path of ['/api/v1/sounds/sample', `/api/v1/sounds/sample/${id}/stream`, mediaPath, '/openapi.json']) {
        const response = await preflight(path, 'GET', 'range');
        assert.equal(response.status, 204, path);
        assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
        assert.match(response.headers.get('access-control-allow-methods') ?? '', /GET/, path);
        assert.match(response.headers.get('access-control-allow-headers') ?? '', /Range/, path);
        assert.equal(response.headers.get('access-control-max-age'), '3600', path);
      }
      const privatePreflights: Array<[string, string, string]> = [
        ['/api/v1/sounds?q=laser', 'GET', 'x-api-key'],
        ['/api/v1/sounds/popular', 'GET', 'x-api-key'],
        [`/api/v1/sounds/${id}`, 'GET', 'x-api-key'],
        [`/api/v1/sounds/${id}/download`, 'GET', 'x-api-key'],
        ['/mcp', 'POST', 'content-type, x-api-key'],
        ['/dashboard/sign-in', 'POST', 'content-type'],
        ['/dashboard', 'GET', 'x-requested-with'],
      ];
      for (const [path, method, headers] of privatePreflights) {
        const response = await preflight(path, method, headers);
        assert.equal(response.status, 404, path);
        assert.equal(response.headers.get('access-control-allow-origin'), null, path);
        assert.equal(response.headers.get('access-control-allow-methods'), null, path);
        assert.equal(response.headers.get('access-control-allow-headers'), null, path);
        await response.arrayBuffer();
      }
    },
  );

  test(
    'cors.private: authenticated endpoints, /mcp and the dashboard ' +
      'send no Access-Control-Allow-Origin, even with a valid key',
    async () => {
      const withKey = { 'x-api-key': key };
      const answers = [
        await fromPage('/api/v1/sounds?q=laser', { headers: withKey }),
        await fromPage('/api/v1/sounds/popular', { headers: withKey }),
        await fromPage(`/api/v1/sounds/${id}`, { headers: withKey }),
        await fromPage(`/api/v1/sounds/${id}/stream`, { headers: withKey }),
        await fromPage('/api/v1/sounds?q=laser'),
        await fromPage('/mcp', {
          method: 'POST',
          headers: { ...withKey, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
        await fromPage('/dashboard/sign-in'),
        await fromPage('/'),
      ];
      assert.deepEqual(
        answers.map((response) => response.status),
        [200, 200, 200, 200, 401, 200, 200, 200],
      );
      for (const response of answers) {
        assert.equal(response.headers.get('access-control-allow-origin'), null, response.url);
        assert.equal(response.headers.get('access-control-expose-headers'), null, response.url);
        await response.arrayBuffer();
      }
    },
  );
});
