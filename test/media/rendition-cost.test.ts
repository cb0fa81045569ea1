import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';
import { remaining, signedUrl } from './helpers.ts';

/**
 * A new rendition costs the account its URL names 10 requests; a stored one nothing; past the quota, 429 and nothing
 * made.
 */
describe('renditions.cost: paid from the daily quota of the account the URL names', () => {
  let server: TestServer;
  let key: string;
  let accountId: string;
  let ids: string[];

  before(async () => {
    server = await startServer();
    const made = await server.account('pro');
    key = made.key;
    accountId = made.account.id;
    ids = [];
    for (const frequency of [330, 440])
      ids.push((await addRealSound(server.services, tone(1, 0.1, frequency), `Tone ${frequency}`)).id);
  });
  after(() => server.close());

  test('renditions.cost.whole-lu: -16.4 and -16 sign the same URL and serve the same file', async () => {
    const [a, b] = [
      await signedUrl(server, key, ids[0]!, 'stream', '?loudness=-16.4'),
      await signedUrl(server, key, ids[0]!, 'stream', '?loudness=-16'),
    ];
    assert.equal(a, b);
    assert.match(a, /[?&]loudness=-16&account=/);
    assert.equal((await server.services.renditions.stats()).made, 0, 'signing makes nothing');
  });

  test(
    'renditions.cost.charged: a new rendition costs 10 once, ' +
      'even for two racing requests; a stored one costs nothing',
    async () => {
      const url = await signedUrl(server, key, ids[0]!, 'download', '?loudness=-20&trim=true');
      const start = await remaining(server, key);
      const [one, two] = await Promise.all([fetch(url), fetch(url)]);
      assert.deepEqual([one.status, two.status], [200, 200]);
      assert.deepEqual(new Uint8Array(await one.arrayBuffer()), new Uint8Array(await two.arrayBuffer()));
      assert.equal(await remaining(server, key), start - 1 - 10, 'one rendition made, paid once');
      const again = await fetch(url);
      assert.equal(again.status, 200);
      await again.arrayBuffer();
      assert.equal(await remaining(server, key), start - 2 - 10, 'serving the stored one cost nothing');
      // The catalog's own file names no account and costs nothing either.
      const plain = await signedUrl(server, key, ids[0]!, 'stream', '');
      assert.doesNotMatch(plain, /account=/);
      await (await fetch(plain)).arrayBuffer();
      assert.equal(await remaining(server, key), start - 4 - 10);
    },
  );

  test(
    'renditions.cost.refused: when the quota cannot cover a new rendition, ' +
      '429 with Retry-After and nothing made; a stored one still serves',
    async () => {
      const stored = await signedUrl(server, key, ids[0]!, 'stream', '?loudness=-30');
      assert.equal((await fetch(stored)).status, 200);
      const fresh = await signedUrl(server, key, ids[1]!, 'stream', '?loudness=-30');
      const left = await remaining(server, key);
      // Spend all but 5: fewer than a rendition costs.
      await server.services.quota.consume(accountId, null, 2500, server.clock.now, left - 5);
      const before = await server.services.renditions.stats();
      const refused = await fetch(fresh);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After names the seconds until the quota resets');
      assert.match(((await refused.json()) as { error: string }).error, /costs 10 requests/);
      assert.equal((await server.services.renditions.stats()).made, before.made, 'nothing made');
      const served = await fetch(stored);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'audio/mpeg');
    },
  );
});
