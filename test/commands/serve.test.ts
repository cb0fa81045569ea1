import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startServe, type ServeProcess } from '../helpers/process.ts';

describe('serve', () => {
  let dataDir: string;
  let server: ServeProcess;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-serve-'));
    server = await startServe({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' });
  });
  after(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('serve.start: PORT=0 takes a free port and says where the API, docs, dashboard and MCP are', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    for (const place of ['/docs', '/dashboard', '/mcp']) assert.ok(server.stderr().includes(server.url + place), place);
  });

  test('serve.health: /healthz and /readyz answer 200 when the stores answer', async () => {
    assert.deepEqual(await (await fetch(`${server.url}/healthz`)).json(), { status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    assert.equal(ready.status, 200);
  });

  test('serve.empty: with no catalog and no demo, the API answers an empty catalog without error', async () => {
    const response = await fetch(`${server.url}/api/v1/sounds/sample`);
    assert.equal(response.status, 200);
    assert.deepEqual((await response.json()).data, []);
  });

  test('serve.logs: JSON lines with a request id; an API key never appears in a log line', async () => {
    const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };
    await runCli(['accounts', 'create', '--email', 'log@example.com', '--plan', 'pro'], env);
    const { json } = await runCli(['keys', 'create', '--email', 'log@example.com', '--json'], env);
    const response = await fetch(`${server.url}/api/v1/sounds?q=x`, {
      headers: { 'x-api-key': json.key, 'x-request-id': 'trace-123' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-request-id'), 'trace-123');
    await fetch(`${server.url}/api/v1/sounds`, { headers: { authorization: `Bearer ${json.key}` } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = server
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const requestLines = lines.map((line) => JSON.parse(line)).filter((entry) => entry.reqId === 'trace-123');
    assert.equal(requestLines.length, 1, 'one line per request, with its id');
    assert.deepEqual(
      [requestLines[0].method, requestLines[0].path, requestLines[0].status],
      ['GET', '/api/v1/sounds', 200],
    );
    assert.ok(!server.stderr().includes(json.key), 'the key is not in the logs');
  });

  test('serve.paths: paths the router cannot read are 404 (403 for media), in the API error shape', async () => {
    const cases: Array<[string, number]> = [
      ['/api/v1/sounds/sample/%E0%A4%A/stream', 404],
      ['/api/v1/sounds/%E0%A4%A', 404],
      [`/api/v1/sounds/${'x'.repeat(500)}`, 404],
      ['/media/%E0%A4%A.mp3?d=stream&exp=1&kid=a&sig=b', 403],
    ];
    for (const [path, status] of cases) {
      const response = await fetch(server.url + path);
      assert.equal(response.status, status, path);
      const body = await response.json();
      assert.deepEqual(Object.keys(body), ['error'], path);
    }
  });
});

describe('serve: shutdown and settings', () => {
  test('serve.sigterm: SIGTERM closes the server cleanly with exit status 0', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-serve-'));
    const server = await startServe({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' });
    assert.equal(await server.stop(), 0);
    assert.match(server.stderr(), /shutting down/);
    await rm(dataDir, { recursive: true, force: true });
  });

  test(
    'config.backends: a DATABASE_URL or REDIS_URL that ' + 'does not answer stops the start with a one-line reason',
    async () => {
      for (const [name, value, reason] of [
        ['DATABASE_URL', 'postgres://127.0.0.1:1/test', /PostgreSQL at DATABASE_URL does not answer/],
        ['REDIS_URL', 'redis://127.0.0.1:1', /Redis at REDIS_URL does not answer/],
      ] as const) {
        const started = Date.now();
        const result = await runCli(['serve'], {
          [name]: value,
          SOUND_CATALOG_DATA: await mkdtemp(path.join(tmpdir(), 'sc-unreachable-')),
          SOUND_CATALOG_DEMO: '0',
        });
        assert.equal(result.status, 1, result.stderr);
        assert.match(result.stderr, reason);
        assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
        assert.ok(Date.now() - started < 15_000, 'it gives up within its timeouts');
      }
    },
  );

  test('config.invalid: a bad setting stops the start with a one-line reason and a non-zero exit', async () => {
    const result = await runCli(['serve'], { PORT: 'seventy', SOUND_CATALOG_DATA: '/tmp/unused' });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /invalid setting PORT/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  test('config.public-url: a PUBLIC_URL holding a character JSON escapes stops the start in one line', async () => {
    // Answers write URLs unescaped (api/serializer.ts); a quote in the base would break every one.
    const result = await runCli(['serve'], {
      PUBLIC_URL: 'https://sounds.example.com/a"b',
      SOUND_CATALOG_DATA: '/tmp/unused',
    });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /invalid setting PUBLIC_URL.*quotes, backslashes or control characters/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });
});
