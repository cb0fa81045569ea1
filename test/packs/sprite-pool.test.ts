import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { RENDITIONS_MAX_WAITING } from '../../src/media/renditions.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { signedUrl } from '../media/helpers.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';

const run = promisify(execFile);
type PackBody = { data: { download_url: string } };

/**
 * A pack's sprite is made on the renditions' worker threads (one here), never on the server's:
 * it waits for the thread a rendition holds, and a full line makes its ZIP wait, as its
 * renditions do, rather than fail once the answer has begun.
 */
describe('packs.sprite.pool: sprites are made on the bounded render pool', () => {
  let server: TestServer;
  let key: string;
  let long: string;
  const shorts: string[] = [];

  before(async () => {
    // The long rendition is made before its answer begins, its socket idle meanwhile: on a busy
    // machine that can outlast the server's idle timeout, which this test is not about.
    server = await startServer({
      env: { RENDITIONS_CONCURRENCY: '1' },
      app: { limits: { idleTimeoutMs: 600_000 } },
    });
    ({ key } = await server.account('enterprise'));
    long = (await addRealSound(server.services, tone(60, 0.1, 220), 'Long Tone')).id;
    for (const [index, frequency] of [440, 660].entries())
      shorts.push((await addRealSound(server.services, tone(1, 0.1, frequency), `Short ${index}`)).id);
  });
  after(() => server.close());

  /** A rendition of the long sound that keeps the one thread for a while: leveled, at 192 kHz and 24 bits. */
  function holdingUrl(loudness: number): Promise<string> {
    const query = `?loudness=${loudness}&format=flac&sample_rate=192000&channels=2&bit_depth=24`;
    return signedUrl(server, key, long, 'stream', query);
  }

  /** Starts the rendition at `url`; resolves once it holds the one thread, with its answer to come. */
  async function holdTheThread(url: string): Promise<{ held: Promise<Response> }> {
    const holding = fetch(url);
    await eventually(
      () => server.services.renditions.stats(),
      (stats) => stats.making === 1,
      30_000,
      'the long rendition started',
    );
    return { held: holding };
  }

  async function packUrl(): Promise<string> {
    const response = await server.get(`/api/v1/packs?ids=${shorts.join(',')}&sprite=true`, { key });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as PackBody).data.download_url;
  }

  async function assertWholeZip(bytes: ArrayBuffer, name: string): Promise<void> {
    const file = path.join(server.dataDir, name);
    await writeFile(file, new Uint8Array(bytes));
    assert.match((await run('unzip', ['-t', file])).stdout, /No errors detected/);
    const names = (await run('unzip', ['-Z1', file])).stdout.trim().split('\n');
    for (const entry of ['sprite.ogg', 'sprite.mp3', 'sprite.howler.json', 'sprite.phaser.json'])
      assert.ok(names.includes(entry), entry);
  }

  test('packs.sprite.pool.thread: the sprite waits for the thread a rendition holds, then is made on it', async () => {
    const before = await server.services.renditions.stats();
    const [holder, pack] = [await holdingUrl(-20), await packUrl()];
    const { held: holding } = await holdTheThread(holder);
    // Read as it comes, so the ZIP reaches its sprite.
    const download = fetch(pack).then(async (response) => ({
      status: response.status,
      body: await response.arrayBuffer(),
    }));
    // The sprite's job waits in the pool's line behind the rendition: it is not made on this thread.
    await eventually(
      () => server.services.renditions.stats(),
      (stats) => stats.waiting === 1 && stats.making === 1,
      30_000,
      'the sprite waiting for the thread',
    );
    assert.equal((await server.services.renditions.stats()).jobs, before.jobs, 'not made while the thread is held');
    const held = await holding;
    assert.equal(held.status, 200);
    await held.arrayBuffer();
    const { status, body } = await download;
    assert.equal(status, 200);
    await assertWholeZip(body, 'thread.zip');
    const end = await server.services.renditions.stats();
    assert.equal(end.jobs, before.jobs + 1, 'one job run on the pool: the sprite');
    assert.deepEqual([end.making, end.waiting], [0, 0]);
  });

  test(
    'packs.sprite.pool.busy: with the thread held and the line full a rendition gets 503, and the ' +
      'ZIP, already begun, waits for room and ends whole with its sprite',
    async () => {
      const before = await server.services.renditions.stats();
      const [holder, pack] = [await holdingUrl(-19), await packUrl()];
      // Distinct renditions of one short sound fill the line: whole LU from -40, with and without trim.
      const urls: string[] = [];
      for (let lufs = -40; urls.length < RENDITIONS_MAX_WAITING + 1; lufs++) {
        for (const trim of ['', '&trim=true'])
          urls.push(await signedUrl(server, key, shorts[0]!, 'stream', `?loudness=${lufs}${trim}`));
      }
      const { held: holding } = await holdTheThread(holder);
      const clients = urls.map(() => new AbortController());
      const answers = urls.map((url, i) =>
        fetch(url, { signal: clients[i]!.signal }).then(
          (response) => response.status,
          () => null,
        ),
      );
      const refused = await eventually(
        async () => (await Promise.all(answers.map((answer) => Promise.race([answer, null])))).filter(Boolean),
        (settled) => settled.length >= urls.length - RENDITIONS_MAX_WAITING,
        30_000,
        'the renditions past the bound answered',
      );
      assert.ok(
        refused.every((status) => status === 503),
        `refused: ${refused.join(',')} of ${urls.length}; ${JSON.stringify(await server.services.renditions.stats())}`,
      );
      await eventually(
        () => server.services.renditions.stats(),
        (stats) => stats.waiting === RENDITIONS_MAX_WAITING,
        30_000,
        'the line full',
      );
      // Claimed and paid, each goes into the pool's line a moment later.
      await sleep(500);

      const response = await fetch(pack);
      assert.equal(response.status, 200, 'the ZIP begins: its sounds come before its sprite');
      const body = response.arrayBuffer();
      // The sprite is refused by the full line and tried again each second: not queued past the bound.
      await sleep(1_500);
      const full = await server.services.renditions.stats();
      assert.ok(full.waiting <= RENDITIONS_MAX_WAITING, `waiting ${full.waiting}`);
      assert.equal(full.jobs, before.jobs, 'the sprite is not made while the line is full');

      // The waiting clients leave, the rendition ends: the sprite gets the thread and the ZIP ends whole.
      for (const client of clients) client.abort();
      const held = await holding;
      assert.equal(held.status, 200);
      await held.arrayBuffer();
      await assertWholeZip(await body, 'busy.zip');
      assert.equal((await server.services.renditions.stats()).jobs, before.jobs + 1);
    },
  );
});
