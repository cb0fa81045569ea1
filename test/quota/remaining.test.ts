import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

/**
 * Each allowed answer says what is left as of its own request, however many others of the same
 * account are in flight: the counts a burst sees are each of limit-1 ... limit-N exactly once.
 * On the in-process counter (SQLite, or PostgreSQL alone) and on Redis (the run's REDIS_URL).
 */
describe('quota.remaining', () => {
  let server: TestServer;
  let agent: http.Agent;
  let soundId: string;
  before(async () => {
    server = await startServer();
    // 100 sockets: every request of a burst is in flight at once, within the listen backlog.
    agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
    ({ id: soundId } = await addSound(server.services, { name: 'Remaining Bell' }));
  });
  after(async () => {
    agent.destroy();
    await server.close();
  });

  const rest = (key: string) => send(`${server.url}/api/v1/sounds/popular?limit=1`, 'GET', key, agent);
  const mcp = (key: string, id: number) =>
    send(`${server.url}/mcp`, 'POST', key, agent, {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_sound', arguments: { id: soundId } },
    });

  test(
    'quota.remaining.rest: 300 concurrent requests on ' + 'a fresh Pro quota get each of 2499 ... 2200 once',
    async () => {
      const { key } = await server.account('pro');
      const answers = await Promise.all(Array.from({ length: 300 }, () => rest(key)));
      assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
      assert.deepEqual(remainingOf(answers), countdown(2500, 300));
    },
  );

  test(
    'quota.remaining.mcp: 200 concurrent tool calls, each a POST ' +
      'to /mcp, get each of 2499 ... 2300 once in their headers',
    async () => {
      const { key } = await server.account('pro');
      const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => mcp(key, n)));
      assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
      for (const answer of answers)
        assert.notEqual((JSON.parse(answer.body) as { result: { isError?: boolean } }).result.isError, true);
      assert.deepEqual(remainingOf(answers), countdown(2500, 200));
    },
  );

  test(
    'quota.remaining.mixed: REST requests and tool calls ' + 'of one account in flight together share one countdown',
    async () => {
      const { key } = await server.account('pro');
      const answers = await Promise.all(Array.from({ length: 300 }, (_, n) => (n % 2 === 0 ? rest(key) : mcp(key, n))));
      assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
      assert.deepEqual(remainingOf(answers), countdown(2500, 300));
    },
  );

  test(
    'quota.remaining.last: a burst past the quota gives 0 to ' +
      'exactly one answer and 429 with remaining 0 to the rest',
    async () => {
      const { account, key } = await server.account('pro');
      // Spend all but 50, then send 80 at once.
      for (let used = 0; used < 2450; used += 50)
        await server.services.quota.consume(account.id, null, 2500, server.clock.now, 50);
      const answers = await Promise.all(Array.from({ length: 80 }, () => rest(key)));
      const allowed = answers.filter((answer) => answer.status === 200);
      const refused = answers.filter((answer) => answer.status === 429);
      assert.equal(allowed.length, 50);
      assert.equal(refused.length, 30);
      assert.deepEqual(remainingOf(allowed), countdown(50, 50));
      assert.deepEqual(new Set(refused.map((answer) => answer.headers['x-ratelimit-remaining'])), new Set(['0']));
    },
  );
});

/** limit-1, limit-2, ... limit-n, in ascending order (as `remainingOf` gives them). */
function countdown(limit: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => limit - n + i);
}

function remainingOf(answers: Answer[]): number[] {
  return answers.map((answer) => Number(answer.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(url: string, method: 'GET' | 'POST', key: string, agent: http.Agent, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { 'x-api-key': key };
    if (body !== undefined)
      Object.assign(headers, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    const request = http.request(url, { method, agent, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
