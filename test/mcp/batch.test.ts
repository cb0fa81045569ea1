import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Account } from '../../src/accounts/store.ts';
import { MAX_BATCH_MESSAGES } from '../../src/mcp/batch.ts';
import { utcDay } from '../../src/quota/quota.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { postMcp } from './mcp-client.ts';

interface Answer {
  id: string | number | null;
  result?: {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    _meta?: { rate_limit: { remaining: number } };
  };
  error?: { code: number; message: string };
}

const LIMIT = 2500;
const call = (id: string | number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const notification = (method = 'notifications/initialized') => ({ jsonrpc: '2.0', method });

/**
 * JSON-RPC batches on POST /mcp: a batch that repeats a request id, or holds more than twenty
 * messages, is refused whole before anything in it is counted or run; an accepted batch has each
 * request decided once, under its own id. Every Pro account starts each test with a fresh day.
 */
describe('mcp.batch: one decision per request, and batches refused whole', () => {
  let server: TestServer;
  let account: Account;
  let key: string;
  let soundId: string;

  before(async () => {
    server = await startServer();
    ({ id: soundId } = await addSound(server.services, { name: 'Glass Break', tags: ['glass'] }));
  });
  beforeEach(async () => {
    ({ account, key } = await server.account('pro'));
  });
  after(() => server.close());

  const usedToday = async () =>
    (await server.services.usageHistory.usage(account.id, [utcDay(server.clock.now)]))[0] ?? 0;
  const downloads = async () => (await server.services.catalog.findById(soundId))!.numDownloads;
  const spendTheDay = async () => {
    const { quota, clock } = server.services;
    for (let used = await usedToday(); used < LIMIT; used += 1) {
      await quota.consume(account.id, 'spend-it', LIMIT, clock());
    }
  };
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await postMcp(server, body, { 'x-api-key': key, ...headers });
    const text = await response.text();
    return { response, answers: (text === '' ? [] : [JSON.parse(text)].flat()) as Answer[] };
  };
  const assertRefusedEach = (answers: Answer[], ids: Array<string | number>, message: RegExp) => {
    assert.deepEqual(
      answers.map((answer) => answer.id),
      ids,
    );
    for (const answer of answers) {
      assert.equal(answer.error?.code, -32600);
      assert.match(answer.error.message, message);
      assert.match(answer.error.message, /Nothing in the batch was run or counted/);
    }
  };

  it(
    'mcp.batch.duplicate-ids: with the day spent, a download and get_quota under one id are both refused, ' +
      'no download counted',
    async () => {
      await spendTheDay();
      const before = await downloads();
      for (const batch of [
        [call(7, 'get_download_url', { id: soundId }), call(7, 'get_quota')],
        [call(7, 'get_quota'), call(7, 'get_download_url', { id: soundId })],
      ]) {
        const { response, answers } = await post(batch);
        assert.equal(response.status, 400);
        assert.equal(response.headers.get('content-type')?.split(';')[0], 'application/json');
        assertRefusedEach(answers, [7, 7], /gives the id 7 to more than one request/);
        assert.equal(response.headers.get('x-ratelimit-remaining'), null, 'nothing was counted');
      }
      assert.equal(await downloads(), before, 'no download counted');
      assert.equal(await usedToday(), LIMIT);
      const quota = await post(call(8, 'get_quota'));
      assert.equal((quota.answers[0]!.result!.structuredContent as { remaining: number }).remaining, 0);
    },
  );

  it('mcp.batch.duplicate-ids: with quota left, nothing of such a batch runs or is counted', async () => {
    const before = await downloads();
    const { response, answers } = await post([
      call('a', 'get_download_url', { id: soundId }),
      notification(),
      call('b', 'search_sounds', { q: 'glass' }),
      { jsonrpc: '2.0', id: 'c', method: 'resources/list' },
      call('a', 'search_sounds', { q: 'glass' }),
    ]);
    assert.equal(response.status, 400);
    assertRefusedEach(answers, ['a', 'b', 'c', 'a'], /gives the id "a" to more than one request/);
    assert.equal(await usedToday(), 0);
    assert.equal(await downloads(), before);
  });

  it('mcp.batch.notifications: notifications have no id and repeat nothing; 7 and "7" are two ids', async () => {
    const { response, answers } = await post([
      notification(),
      call(7, 'search_sounds', { q: 'glass' }),
      notification(),
      call('7', 'get_sound', { id: soundId }),
    ]);
    assert.equal(response.status, 200);
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [7, '7'],
      'answered in the order asked',
    );
    assert.ok(answers.every((answer) => answer.result && answer.result.isError !== true));
    assert.equal(await usedToday(), 2);
  });

  it('mcp.batch.cap: a batch of 21 is refused whole, nothing charged, nothing downloaded', async () => {
    const before = await downloads();
    const calls = Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, n) =>
      call(n + 1, 'get_download_url', { id: soundId }),
    );
    const { response, answers } = await post(calls);
    assert.equal(response.status, 400);
    assertRefusedEach(
      answers,
      calls.map((message) => message.id),
      /a batch holds at most 20 messages, this one 21/,
    );
    // Notifications are messages of the batch too; one with nothing to answer by id gets one error.
    const withNotification = await post([...calls.slice(0, MAX_BATCH_MESSAGES), notification()]);
    assert.equal(withNotification.response.status, 400);
    assert.equal(withNotification.answers.length, MAX_BATCH_MESSAGES);
    const onlyNotifications = await post(Array.from({ length: 21 }, () => notification()));
    assert.equal(onlyNotifications.response.status, 400);
    assert.deepEqual(
      onlyNotifications.answers.map((answer) => [answer.id, answer.error?.code]),
      [[null, -32600]],
    );
    assert.equal(await usedToday(), 0);
    assert.equal(await downloads(), before);
  });

  it('mcp.batch.cap: a batch of 20 distinct ids has every call answered and charged exactly once', async () => {
    const before = await downloads();
    const calls = Array.from({ length: MAX_BATCH_MESSAGES }, (_, n) =>
      call(n + 1, 'get_download_url', { id: soundId }),
    );
    const { response, answers } = await post(calls);
    assert.equal(response.status, 200);
    assert.deepEqual(
      answers.map((answer) => answer.id),
      calls.map((message) => message.id),
    );
    assert.ok(
      answers.every((answer) => answer.result && answer.result.isError !== true),
      JSON.stringify(answers[0]),
    );
    // Decided one after another: the twenty remainders are the twenty steps down from the limit.
    const remaining = answers.map((answer) => answer.result!._meta!.rate_limit.remaining).sort((a, b) => b - a);
    assert.deepEqual(
      remaining,
      Array.from({ length: 20 }, (_, n) => LIMIT - 1 - n),
    );
    assert.equal(response.headers.get('x-ratelimit-remaining'), String(LIMIT - 20));
    assert.equal(await usedToday(), 20);
    assert.equal(await downloads(), before + 20);
  });

  it('mcp.batch.empty: an empty batch is one Invalid Request, as JSON-RPC prescribes', async () => {
    const { response, answers } = await post([]);
    assert.equal(response.status, 400);
    assert.deepEqual(
      answers.map((answer) => [answer.id, answer.error?.code]),
      [[null, -32600]],
    );
  });

  it('mcp.batch.own-decision: each id of a batch gets the decision made for it; get_quota states its own', async () => {
    const { answers } = await post([
      call(1, 'get_quota'),
      call(2, 'search_sounds', { q: 'glass' }),
      call(3, 'get_quota'),
    ]);
    const byId = new Map(answers.map((answer) => [answer.id, answer.result!]));
    const stated = (id: number) => (byId.get(id)!.structuredContent as { remaining: number }).remaining;
    assert.equal(stated(1), LIMIT);
    assert.equal(byId.get(2)!._meta!.rate_limit.remaining, LIMIT - 1);
    assert.equal(stated(3), LIMIT - 1);
    for (const id of [1, 2, 3]) assert.equal(byId.get(id)!._meta!.rate_limit.remaining, id === 1 ? LIMIT : LIMIT - 1);
  });

  it('mcp.batch.own-decision: with the day spent, a download beside get_quota is refused and not counted', async () => {
    await spendTheDay();
    const before = await downloads();
    const { response, answers } = await post([call(1, 'get_download_url', { id: soundId }), call(2, 'get_quota')]);
    assert.equal(response.status, 200);
    const byId = new Map(answers.map((answer) => [answer.id, answer.result!]));
    assert.equal(byId.get(1)!.isError, true);
    assert.match(JSON.stringify(byId.get(1)), /Daily quota of 2500 requests exceeded/);
    assert.equal((byId.get(2)!.structuredContent as { remaining: number }).remaining, 0);
    assert.equal(await downloads(), before);
    assert.equal(await usedToday(), LIMIT);
  });

  it('mcp.batch.refused-by-transport: a body the transport refuses costs nothing', async () => {
    const get = call(1, 'get_sound', { id: soundId });
    const noAccept = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(get),
    });
    assert.equal(noAccept.status, 406);
    assert.equal((await post(get, { 'mcp-protocol-version': '1999-01-01' })).response.status, 400);
    assert.equal((await post([get, { jsonrpc: '2.0', id: 2 }])).response.status, 400, 'an entry that is not JSON-RPC');
    const initialize = {
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'batch-test', version: '1' } },
    };
    assert.equal((await post([initialize, get])).response.status, 400, 'initialize in a batch');
    assert.equal(await usedToday(), 0);
  });

  it('mcp.batch.cancelled: a cancellation beside the request it names is ignored, the request answered', async () => {
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    const { response, answers } = await post([call(1, 'get_sound', { id: soundId }), cancel]);
    assert.equal(response.status, 200);
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [1],
    );
    assert.equal(await usedToday(), 1);
  });
});
