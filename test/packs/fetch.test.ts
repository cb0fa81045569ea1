import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { remaining } from '../media/helpers.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';

type PackBody = { data: { download_url: string } };

/** A pack URL, as a client gets one (its call costs one request per sound). */
async function packUrl(server: TestServer, key: string, ids: string[], query: string): Promise<string> {
  const response = await server.get(`/api/v1/packs?ids=${ids.join(',')}&${query}`, { key });
  assert.equal(response.status, 200, await response.clone().text());
  return ((await response.json()) as PackBody).data.download_url;
}

async function fetchWhole(url: string): Promise<Buffer> {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * A fetch of a pack URL pays for the renditions it makes, at their price (10 per started 10
 * minutes, weighted by rate, channels and depth), before making anything; stored ones cost nothing.
 */
describe('packs.fetch: each fetch of a pack URL pays for the renditions it makes', () => {
  let server: TestServer;
  const ids: string[] = [];

  before(async () => {
    // Below any one rendition: every fetch finds none stored, as in the problem found from outside.
    server = await startServer({ env: { RENDITIONS_MAX_BYTES: '1' } });
    for (const [index, frequency] of [330, 392, 440, 494, 523, 587].entries()) {
      ids.push((await addRealSound(server.services, tone(1, 0.1, frequency), `Tone ${index}`)).id);
    }
  });
  after(() => server.close());

  test(
    'packs.fetch.charged: a FLAC pack over RENDITIONS_MAX_BYTES ' +
      'is made again on every fetch, and every fetch pays for it',
    async () => {
      const { key } = await server.account('pro');
      const url = await packUrl(server, key, ids, 'format=flac');
      const start = await remaining(server, key);
      assert.equal(start, 2500 - ids.length - 1, 'asking for the pack cost one request per sound');
      for (const round of [1, 2]) {
        const made = (await server.services.renditions.stats()).made;
        const before = await remaining(server, key);
        await fetchWhole(url);
        assert.equal(
          (await server.services.renditions.stats()).made,
          made + ids.length,
          `fetch ${round} made every rendition again`,
        );
        // 10 each (1 s of FLAC at the default rate and depth), and the request that reads what is left.
        assert.equal(
          await remaining(server, key),
          before - 10 * ids.length - 1,
          `fetch ${round} paid for what it made`,
        );
      }
    },
  );

  test(
    'packs.fetch.refused: when the quota cannot cover the renditions, ' +
      '429 with the quota body and headers, before anything is made',
    async () => {
      const { key, account } = await server.account('pro');
      const url = await packUrl(server, key, ids, 'format=flac&channels=1');
      const left = await remaining(server, key);
      // 5 each for mono, 30 for the pack: leave 29.
      await server.services.quota.consume(account.id, null, 2500, server.clock.now, left - 29);
      const made = (await server.services.renditions.stats()).made;
      const refused = await fetch(url);
      assert.equal(refused.status, 429);
      const body = (await refused.json()) as { error: string; limit: number; reset: number };
      assert.match(body.error, /costs 30 requests/);
      assert.equal(body.limit, 2500);
      assert.ok(body.reset > server.clock.now / 1000);
      assert.equal(refused.headers.get('x-ratelimit-limit'), '2500');
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '29');
      assert.equal(refused.headers.get('x-ratelimit-reset'), String(body.reset));
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal((await server.services.renditions.stats()).made, made, 'nothing made');
      assert.equal(await remaining(server, key), 28, 'nothing counted but the request that reads it');
    },
  );

  test('packs.fetch.left: a client that leaves mid-way pays for the renditions made, not for the others', async () => {
    const { key } = await server.account('pro');
    const url = await packUrl(server, key, ids, 'format=wav');
    const before = await remaining(server, key);
    const made = (await server.services.renditions.stats()).made;
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    assert.equal(response.status, 200);
    // The first file's bytes (a WAV of 1 s is about 176 kB), then gone.
    const reader = response.body!.getReader();
    for (let received = 0; received < 200_000; ) received += (await reader.read()).value?.byteLength ?? Infinity;
    controller.abort();
    await reader.read().catch(() => {});
    // Idle twice, 300 ms apart, with nothing made between: the server has seen the client go (between two files it
    // looks idle too).
    const idle = async () =>
      eventually(
        () => server.services.renditions.stats(),
        (stats) => stats.making === 0 && stats.waiting === 0,
        30_000,
      );
    let last = await idle();
    for (let seen = last; ; last = seen) {
      await sleep(300);
      seen = await idle();
      if (seen.made === last.made) break;
    }
    const madeHere = last.made - made;
    assert.ok(madeHere >= 1 && madeHere < ids.length, `made ${madeHere} of ${ids.length}`);
    // What it did not make was given back when the client left, before the job under way ended.
    assert.equal(await remaining(server, key), before - 10 * madeHere - 1, 'charged for what was made only');
  });
});

describe('packs.fetch.concurrent: an account fetches at most 2 packs at once', () => {
  let server: TestServer;
  let id: string;

  before(async () => {
    server = await startServer();
    // 60 s of mono WAV, 5 MB: a fetch whose body is not read stays open.
    id = (await addRealSound(server.services, tone(60, 0.1, 440), 'Long Tone')).id;
  });
  after(() => server.close());

  test(
    'packs.fetch.concurrent: a 3rd concurrent fetch is 429 with ' +
      'Retry-After; a place frees when a ZIP ends or its client leaves',
    async () => {
      const { key } = await server.account('pro');
      const { key: otherKey } = await server.account('pro');
      const url = await packUrl(server, key, [id], 'format=wav');
      const first = new AbortController();
      const one = await fetch(url, { signal: first.signal });
      const two = await fetch(url);
      assert.deepEqual([one.status, two.status], [200, 200]);
      const third = await fetch(url);
      assert.equal(third.status, 429);
      assert.ok(Number(third.headers.get('retry-after')) > 0);
      assert.match(((await third.json()) as { error: string }).error, /2 packs/);
      // Another account is not held back.
      const other = await fetch(await packUrl(server, otherKey, [id], 'format=wav'));
      assert.equal(other.status, 200);
      await other.body!.cancel();

      // The first client leaves: its place frees.
      first.abort();
      const fourth = await eventually(
        async () => {
          const response = await fetch(url);
          if (response.status !== 200) await response.arrayBuffer();
          return response;
        },
        (response) => response.status === 200,
        5_000,
        'a place freed by a client that left',
      );
      // The second and fourth ZIPs end: both places free.
      const [a, b] = await Promise.all([two.arrayBuffer(), fourth.arrayBuffer()]);
      assert.equal(a.byteLength, b.byteLength);
      assert.ok(a.byteLength > 5_000_000, `a whole ZIP: ${a.byteLength} bytes`);
      // The server's side of each ends just after the client has read it all.
      await sleep(200);
      const again = await Promise.all([fetch(url), fetch(url)]);
      assert.deepEqual(
        again.map((response) => response.status),
        [200, 200],
      );
      await Promise.all(again.map((response) => response.arrayBuffer()));
    },
  );
});
