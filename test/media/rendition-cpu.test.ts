import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';
import { signedUrl } from './helpers.ts';

/**
 * What holds the one thread while the others come: seconds of work even on a slow machine, where
 * the 70 requests after it take under a second here.
 */
const LONG_RENDITION = '?format=flac&sample_rate=192000&channels=2&bit_depth=24';

/** RENDITIONS_CONCURRENCY made at once, 64 waiting, the rest 503; a waiting job whose clients left is dropped. */
describe('renditions.cpu: a bounded number made and waiting; abandoned jobs dropped before they start', () => {
  let server: TestServer;
  let key: string;
  let long: string;
  let short: string;

  before(async () => {
    server = await startServer({ env: { RENDITIONS_CONCURRENCY: '1' } });
    ({ key } = await server.account('enterprise'));
    long = (await addRealSound(server.services, tone(30, 0.1, 220), 'Long Tone')).id;
    short = (await addRealSound(server.services, tone(1, 0.1, 880), 'Short Tone')).id;
  });
  after(() => server.close());

  test(
    'renditions.cpu.busy: with the one thread busy, 64 more wait and the ' +
      'rest get 503 with Retry-After; clients that leave drop their jobs',
    async () => {
      // 70 distinct renditions of the short sound: whole LU from -40 to -6, with and without trim.
      const urls: string[] = [];
      for (let lufs = -40; lufs <= -6; lufs++) {
        for (const trim of ['', '&trim=true'])
          urls.push(await signedUrl(server, key, short, 'stream', `?loudness=${lufs}${trim}`));
      }
      const holding = fetch(await signedUrl(server, key, long, 'stream', LONG_RENDITION));
      await eventually(
        () => server.services.renditions.stats(),
        (stats) => stats.making === 1,
        30_000,
        'the long rendition started',
      );

      const clients = urls.map(() => new AbortController());
      const answers = urls.map((url, i) =>
        fetch(url, { signal: clients[i]!.signal }).then(
          async (response) => ({
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            body: await response.text(),
          }),
          () => null,
        ),
      );
      const refused = await eventually(
        async () =>
          (await Promise.all(answers.map((answer) => Promise.race([answer, null])))).filter(
            (answer) => answer !== null,
          ),
        (settled) => settled.length >= urls.length - 64,
        30_000,
        'the requests past the bound answered',
      );
      const stats = await server.services.renditions.stats();
      assert.equal(stats.made, 0, 'the long rendition still holds the thread');
      // While the long one runs, exactly 64 wait; were it to end first, one more would have got in.
      assert.ok(stats.waiting <= 64, `waiting ${stats.waiting}`);
      assert.ok(
        refused.length >= urls.length - 64 - 1 && refused.length <= urls.length - 64,
        `${refused.length} refused`,
      );
      for (const answer of refused) {
        assert.equal(answer!.status, 503, answer!.body);
        assert.ok(Number(answer!.retryAfter) > 0);
        assert.match(JSON.parse(answer!.body).error, /try again/);
      }

      // Every waiting client goes away: their jobs never start.
      for (const client of clients) client.abort();
      await eventually(
        () => server.services.renditions.stats(),
        (s) => s.waiting === 0,
        10_000,
        'abandoned jobs dropped',
      );
      const done = await holding;
      assert.equal(done.status, 200);
      await done.arrayBuffer();
      const end = await eventually(
        () => server.services.renditions.stats(),
        (s) => s.making === 0 && s.waiting === 0,
        30_000,
      );
      assert.equal(end.made, stats.made + 1, 'only the long rendition was made');
    },
  );

  test(
    'renditions.cpu.left-on-the-way: clients that leave while in line, or while their renditions ' +
      'still get their sources, drop them; only the running one is made',
    async () => {
      const files = server.services.files;
      const localCopy = files.localCopy.bind(files);
      // Past the first three, copies of the source wait here: a slow bucket.
      const held: Array<() => void> = [];
      let copied = 0;
      files.localCopy = async (fileKey) => {
        const copy = await localCopy(fileKey);
        if (copied++ >= 3) await new Promise<void>((resolve) => held.push(resolve));
        return copy;
      };
      const stats = () => server.services.renditions.stats();
      try {
        const { made } = await stats();
        const holding = fetch(await signedUrl(server, key, long, 'stream', `${LONG_RENDITION}&loudness=-21`));
        await eventually(stats, (now) => now.making === 1, 30_000, 'the long rendition started');
        copied = 0;
        const ask = async (lufs: number, client: AbortController) =>
          fetch(await signedUrl(server, key, short, 'stream', `?loudness=${lufs}&format=wav`), {
            signal: client.signal,
          }).catch(() => null);
        const inLine = Array.from({ length: 3 }, () => new AbortController());
        const answers = inLine.map((client, i) => ask(-30 - i, client));
        await eventually(stats, (now) => now.waiting === 3, 10_000, 'three in line');
        const copying = Array.from({ length: 3 }, () => new AbortController());
        answers.push(...copying.map((client, i) => ask(-33 - i, client)));
        await eventually(
          async () => held.length,
          (count) => count === 3,
          10_000,
          'three copies held',
        );
        const before = await stats();
        assert.deepEqual([before.making, before.waiting, before.made], [1, 6, made]);

        for (const client of inLine) client.abort();
        await eventually(stats, (now) => now.waiting === 3, 10_000, 'the three in line dropped');
        for (const client of copying) client.abort();
        for (const release of held) release();
        await eventually(stats, (now) => now.waiting === 0, 10_000, 'the three copying dropped');
        await Promise.all(answers);

        const done = await holding;
        assert.equal(done.status, 200);
        await done.arrayBuffer();
        const end = await eventually(stats, (now) => now.making === 0 && now.waiting === 0, 30_000);
        assert.equal(end.made, made + 1, 'only the long rendition was made');
      } finally {
        files.localCopy = localCopy;
      }
    },
  );
});
