import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

/**
 * Fetches `url` and cuts the connection once `bytes` have come (at least one chunk), as a browser whose user cancels
 * does.
 */
function leaveAfter(url: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= bytes) {
          request.destroy();
          resolve(received);
        }
      });
      response.on('end', () =>
        reject(new Error(`the whole pack came (${received} bytes) before the client could leave`)),
      );
    });
    request.on('error', () => {});
  });
}

describe(
  'packs.disconnect: a client that leaves halfway stops ' + 'the pack, quietly, and the server goes on serving',
  () => {
    let server: TestServer;
    const logged: Array<{ level: number; msg?: string }> = [];
    /** The streams the media store handed out, in order: every file and rendition of a pack is read through it. */
    const reads: Readable[] = [];
    /** The file key of each read: a delivered file reads its head, then the rest. */
    const readKeys: string[] = [];
    let key: string;

    before(async () => {
      server = await startServer({
        app: { logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } },
      });
      ({ key } = await server.account('enterprise'));
      // Counts what the store is asked to read, and keeps the streams to see that each is closed.
      const files = server.services.files;
      const read = files.read.bind(files);
      files.read = async (fileKey, range) => {
        const stream = await read(fileKey, range);
        reads.push(stream);
        readKeys.push(fileKey);
        return stream;
      };
    });
    after(() => server.close());

    const askPack = async (query: string) => {
      const response = await server.get(`/api/v1/packs?${query}`, { key });
      assert.equal(response.status, 200, await response.clone().text());
      return ((await response.json()) as { data: { download_url: string } }).data.download_url;
    };
    const crashes = () => logged.filter((line) => line.level >= 50);
    /** Every stream opened since `from` is closed: none is left paused behind the cut connection, holding a file. */
    const allClosed = (from: number) =>
      eventually(
        async () => reads.slice(from).map((stream) => stream.destroyed),
        (closed) => closed.every(Boolean),
        2000,
        'streams closed',
      );

    test(
      'packs.disconnect.files: 10 files of 8 MiB, the client leaves after 1 MiB, in the first; ' +
        'no file is opened after it left and the open one is closed, nothing is logged as an error',
      async () => {
        const ids: string[] = [];
        // Files larger than what the sockets and streams between hold: the first is still being read when the client
        // leaves.
        for (let i = 0; i < 10; i++)
          ids.push(
            (await addSound(server.services, { name: `Leave ${i}`, bytes: new Uint8Array(randomBytes(8 << 20)) })).id,
          );
        const url = await askPack(`ids=${ids.join(',')}`);
        const before = reads.length;
        await leaveAfter(url, 1 << 20);
        // What the server had opened when it learnt the client was gone, then nothing more.
        await sleep(500);
        const filesOpened = () => new Set(readKeys.slice(before)).size;
        const opened = filesOpened();
        await sleep(1500);
        assert.equal(filesOpened(), opened, 'no file opened after the client left');
        assert.equal(opened, 1, `${opened} of 10 files opened`);
        await allClosed(before);
        assert.deepEqual(crashes(), []);
      },
    );

    test(
      'packs.disconnect.renditions: a WAV pack (192 kHz, 24 bits: files larger than the ' +
        'buffers between) of 5 sounds not made yet, the client leaves at the first bytes; no ' +
        'rendition starts after and the file being sent is closed, nothing is logged as an error',
      async () => {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const { mp3, measurements } = await encodeAndMeasure(synthesizeSound('pack-leave', i).audio);
          ids.push((await addSound(server.services, { name: `Leave Rendition ${i}`, bytes: mp3, ...measurements })).id);
        }
        const url = await askPack(`ids=${ids.join(',')}&format=wav&sample_rate=192000&bit_depth=24`);
        const before = (await server.services.renditions.stats()).made;
        const readsBefore = reads.length;
        await leaveAfter(url, 1);
        // A rendition already on a thread runs to its end (it is paid for, and kept); one still waiting is dropped;
        // none is started after.
        const settled = await eventually(
          () => server.services.renditions.stats(),
          (stats) => stats.waiting === 0 && stats.making === 0,
          10_000,
          'renditions settle',
        );
        await sleep(1500);
        const stats = await server.services.renditions.stats();
        assert.equal(stats.made, settled.made, 'no rendition made after the client left');
        assert.equal(stats.waiting + stats.making, 0);
        const made = stats.made - before;
        // yazl asks for one file at a time: at most the one being made when the client left (none, when it was still
        // waiting for a thread).
        assert.ok(made <= 1, `${made} of 5 renditions made`);
        await allClosed(readsBefore);
        assert.deepEqual(crashes(), []);
      },
    );

    test('packs.disconnect.next: after both, the next pack is served whole', async () => {
      const id = (await addSound(server.services, { name: 'After Leaving' })).id;
      const response = await fetch(await askPack(`ids=${id}`));
      assert.equal(response.status, 200);
      const bytes = Buffer.from(await response.arrayBuffer());
      // The end of central directory record closes a whole ZIP.
      assert.equal(bytes.readUInt32LE(bytes.length - 22), 0x06054b50);
      assert.deepEqual(crashes(), []);
    });
  },
);
