import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVER_LIMITS } from '../../../src/api/limits.ts';
import { csrfToken, WebClient } from '../../dashboard/helpers/web-client.ts';
import {
  bodyOf,
  connect,
  rawRequest,
  startAppServer,
  statusOf,
  type AppServer,
  type RawConnection,
} from './app-server.ts';

const KiB = 1024;
const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n${headers}\r\n`;

describe('limits: sizes', () => {
  let server: AppServer;
  let key: string;
  before(async () => {
    server = await startAppServer();
    key = await server.proKey();
  });
  after(() => server.close());

  test('limits.headers: headers past 16 KiB are answered 431 in the error shape; just under is served', async () => {
    const under = await rawRequest(server.port, get('/healthz', `X-Padding: ${'a'.repeat(15 * KiB)}\r\n`));
    assert.equal(statusOf(under), 200);
    const over = await rawRequest(
      server.port,
      get('/healthz', `X-Padding: ${'a'.repeat(SERVER_LIMITS.headerBytes)}\r\n`),
    );
    assert.equal(statusOf(over), 431);
    assert.deepEqual(JSON.parse(bodyOf(over)), { error: 'Request Header Fields Too Large' });
  });

  test(
    'limits.url: a URL past the same 16 KiB is refused ' + '(431) before routing; a 10 KB query is still answered',
    async () => {
      const long = await rawRequest(server.port, get(`/api/v1/sounds/sample?q=${'a'.repeat(10_000)}`));
      assert.equal(statusOf(long), 200);
      const tooLong = await rawRequest(
        server.port,
        get(`/api/v1/sounds/sample?q=${'a'.repeat(SERVER_LIMITS.headerBytes)}`),
      );
      assert.equal(statusOf(tooLong), 431);
      const unknownRoute = await rawRequest(server.port, get(`/${'a'.repeat(SERVER_LIMITS.headerBytes)}`));
      assert.equal(statusOf(unknownRoute), 431);
    },
  );

  test(
    'limits.body.dashboard: a form past 16 KiB and a JSON ' +
      'body past 64 KiB to a dashboard form are refused with 413',
    async () => {
      const client = new WebClient(server.url);
      const _csrf = csrfToken((await client.get('/dashboard/sign-in')).text);
      const form = await client.post('/dashboard/sign-in', {
        email: 'a@example.com',
        password: 'x'.repeat(17 * KiB),
        _csrf,
      });
      assert.equal(form.status, 413);
      const json = await client.send('/dashboard/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(65 * KiB), _csrf }),
      });
      assert.equal(json.status, 413);
    },
  );

  test(
    'limits.body.mcp: a JSON-RPC message past 64 KiB gets ' + '413 (sized or streamed), one under it is answered',
    async () => {
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': key,
      };
      const message = (padding: number) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { _meta: { padding: 'x'.repeat(padding) } },
        });

      const under = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: message(60 * KiB) });
      assert.equal(under.status, 200);
      assert.ok(((await under.json()) as { result?: { tools?: unknown[] } }).result?.tools?.length);

      const sized = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers,
        body: message(SERVER_LIMITS.bodyBytes),
      });
      assert.equal(sized.status, 413);
      assert.equal(((await sized.json()) as { error?: { code?: number } }).error?.code, -32000);

      // Without a Content-Length the body is counted as it arrives.
      const bytes = new TextEncoder().encode(message(SERVER_LIMITS.bodyBytes));
      const streamed = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers,
        body: new ReadableStream({
          start(controller) {
            for (let at = 0; at < bytes.length; at += 8 * KiB) controller.enqueue(bytes.subarray(at, at + 8 * KiB));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      assert.equal(streamed.status, 413);
      await streamed.body?.cancel();
    },
  );
});

describe('limits: slow clients', () => {
  // Short limits so the test takes seconds; the defaults (api/limits.ts) are 10 s and 30 s.
  const limits = { headersTimeoutMs: 1000, requestTimeoutMs: 2000, timeoutCheckMs: 200 };
  // Generous: the server closes them after about 1.2 s and 2.2 s; a loaded machine may lag.
  const BOUND_MS = 8000;
  let server: AppServer;
  before(async () => {
    server = await startAppServer({ limits });
  });
  after(() => server.close());

  /** Writes the text one byte every 100 ms until the server closes the connection. */
  function trickle(connection: RawConnection, text: string): void {
    let at = 0;
    const timer = setInterval(() => {
      if (connection.socket.destroyed || at >= text.length) return clearInterval(timer);
      connection.socket.write(text[at++]!);
    }, 100);
    void connection.closed.then(() => clearInterval(timer));
  }

  /** Fetches /healthz every 100 ms until `done` settles; every answer must be 200. */
  async function keepAsking(done: Promise<unknown>): Promise<number> {
    let answered = 0;
    let finished = false;
    void done.finally(() => {
      finished = true;
    });
    while (!finished) {
      const response = await fetch(`${server.url}/healthz`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      answered += 1;
      await sleep(100);
    }
    return answered;
  }

  test(
    'limits.slowloris: headers sent a byte at a time, or never, ' +
      'are cut off at the headers timeout while others are answered',
    async () => {
      const slow = await Promise.all(Array.from({ length: 8 }, () => connect(server.port)));
      // Endless headers: the socket never idles, only the headers timeout can end it.
      const endless = `GET /healthz HTTP/1.1\r\nHost: test\r\n${'X-Slow: a\r\n'.repeat(1000)}`;
      for (const connection of slow) trickle(connection, endless);
      const silent = await connect(server.port);

      const allClosed = Promise.all([...slow, silent].map((connection) => connection.closed));
      const answered = await keepAsking(allClosed);
      const openFor = await allClosed;
      assert.ok(answered >= 3, `other clients were answered meanwhile (${answered})`);
      for (const [index, ms] of openFor.entries()) {
        assert.ok(ms >= limits.headersTimeoutMs - 100 && ms < BOUND_MS, `connection ${index} closed after ${ms} ms`);
      }
      for (const connection of slow) assert.equal(statusOf(connection.received()), 408);
    },
  );

  test(
    'limits.slow-body: a form body sent a byte at a time is ' +
      'cut off at the request timeout while others are answered',
    async () => {
      const client = new WebClient(server.url);
      const page = await client.get('/dashboard/sign-in');
      const body = new URLSearchParams({
        email: 'slow@example.com',
        password: 'x'.repeat(500),
        _csrf: csrfToken(page.text),
      }).toString();
      const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const connection = await connect(server.port);
      connection.socket.write(
        `POST /dashboard/sign-in HTTP/1.1\r\nHost: test\r\nCookie: ${cookie}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      trickle(connection, body);

      const answered = await keepAsking(connection.closed);
      const ms = await connection.closed;
      assert.ok(answered >= 3, `other clients were answered meanwhile (${answered})`);
      assert.ok(ms >= limits.requestTimeoutMs - 100 && ms < BOUND_MS, `closed after ${ms} ms`);
      assert.equal(statusOf(connection.received()), 408);
    },
  );
});

describe('limits: connections', () => {
  let server: AppServer;
  before(async () => {
    server = await startAppServer({ env: { MAX_CONNECTIONS: '4' } });
  });
  after(() => server.close());

  async function openConnections(): Promise<number> {
    return new Promise((resolve, reject) =>
      server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  }

  async function until(condition: () => Promise<boolean>): Promise<void> {
    for (let tries = 0; tries < 100 && !(await condition()); tries++) await sleep(50);
  }

  test(
    'limits.connections: past MAX_CONNECTIONS a new connection is closed ' +
      'unanswered; open ones are served, and a freed place serves again',
    async () => {
      const held = await Promise.all(Array.from({ length: 4 }, () => connect(server.port)));
      await until(async () => (await openConnections()) === 4);
      assert.equal(await openConnections(), 4);

      const refused = await connect(server.port).catch(() => null);
      if (refused) {
        refused.socket.write(get('/healthz'));
        await refused.closed;
        assert.equal(refused.received(), '', 'no answer past the cap');
      }
      assert.ok(
        server
          .logLines()
          .some((line) => line.msg === 'connections refused: the server holds MAX_CONNECTIONS open connections'),
      );

      // A connection already open is still served.
      held[0]!.socket.write(get('/healthz'));
      await held[0]!.closed;
      assert.equal(statusOf(held[0]!.received()), 200);

      await until(async () => (await openConnections()) < 4);
      assert.equal(
        statusOf(await rawRequest(server.port, get('/healthz'))),
        200,
        'a freed place serves a new connection',
      );
      for (const connection of held) connection.socket.destroy();
    },
  );
});

describe('limits: shutdown', () => {
  test(
    'limits.shutdown: a slow client cannot hold a shutdown open: ' +
      'after the grace its connection is cut and close returns',
    async () => {
      const server = await startAppServer({ limits: { shutdownGraceMs: 1000 } });
      const slow = await connect(server.port);
      slow.socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: ');
      const timer = setInterval(() => slow.socket.write('a'), 100);
      try {
        await sleep(300);
        const started = Date.now();
        await server.close();
        const ms = Date.now() - started;
        // Node stops its headers timeout (10 s here) at close: only the grace ends this client.
        assert.ok(ms >= 900 && ms < 6000, `closed after ${ms} ms`);
        await slow.closed;
      } finally {
        clearInterval(timer);
        slow.socket.destroy();
      }
    },
  );
});
