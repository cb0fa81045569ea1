import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renditionKey } from '../../src/media/renditions.ts';
import { estimateRenditionBytes } from '../../src/media/rendition-work.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';
import { remaining, signedUrl } from './helpers.ts';

/** The files in the scratch folder renditions are written to before they are stored (none when it does not exist). */
async function scratchFiles(server: TestServer): Promise<string[]> {
  return readdir(path.dirname(server.services.files.temporaryPath())).catch(() => []);
}

/** Every render job has a time limit; past it the job is stopped, its scratch files removed and its payer refunded. */
describe('renditions.limits.time: a job past its time limit is stopped, cleaned up and refunded', () => {
  let server: TestServer;
  let key: string;
  let id: string;

  before(async () => {
    // A limit no job meets: starting a thread alone takes longer.
    server = await startServer({ services: { renderTimeLimit: { floorMs: 1, msPerWeightedSecond: 0 } } });
    ({ key } = await server.account('pro'));
    id = (await addRealSound(server.services, tone(2, 0.1, 440), 'Tone')).id;
  });
  after(() => server.close());

  test(
    'renditions.limits.time.media: 503 with Retry-After and a plain ' +
      'message; nothing charged, stored, reserved or left in scratch',
    async () => {
      const url = await signedUrl(server, key, id, 'download', '?format=wav&loudness=-20');
      const before = await remaining(server, key);
      const response = await fetch(url);
      assert.equal(response.status, 503);
      assert.ok(Number(response.headers.get('retry-after')) > 0);
      const body = (await response.json()) as { error: string };
      assert.deepEqual(Object.keys(body), ['error']);
      assert.match(body.error, /took too long.*nothing was charged/);
      assert.doesNotMatch(body.error, /\bms\b|Error|at /, 'no internals');
      assert.equal(await remaining(server, key), before - 1, 'the 10 paid were given back');
      const stats = await server.services.renditions.stats();
      assert.deepEqual(
        { made: stats.made, bytes: stats.bytes },
        { made: 0, bytes: 0 },
        'nothing stored, the reservation released',
      );
      assert.deepEqual(await scratchFiles(server), []);
    },
  );

  test("renditions.limits.time.pack: the ZIP is cut, and the fetch's whole charge is given back", async () => {
    const response = await server.get(`/api/v1/packs?ids=${id}&format=flac`, { key });
    assert.equal(response.status, 200);
    const { data } = (await response.json()) as { data: { download_url: string } };
    const before = await remaining(server, key);
    const zip = await fetch(data.download_url);
    assert.equal(zip.status, 200, 'the headers go before the first file is made');
    await assert.rejects(zip.arrayBuffer(), 'the connection is cut: never a short ZIP taken for whole');
    await eventually(
      () => server.services.renditions.stats(),
      (stats) => stats.making === 0 && stats.waiting === 0,
      10_000,
    );
    assert.equal(await remaining(server, key), before - 1, 'paid 10 at the start of the fetch, given back');
    assert.deepEqual(await scratchFiles(server), []);
  });
});

/** Scratch files count within RENDITIONS_MAX_BYTES: a job reserves its output's estimated size before writing any. */
describe(
  'renditions.limits.disk: a rendition being made ' + 'reserves its estimated size within RENDITIONS_MAX_BYTES',
  () => {
    let server: TestServer;
    let key: string;
    let small: string;
    let large: string;
    let stored: number;
    const bound = 10_000_000;

    before(async () => {
      server = await startServer({ env: { RENDITIONS_MAX_BYTES: String(bound) } });
      ({ key } = await server.account('enterprise'));
      small = (await addRealSound(server.services, tone(2, 0.1, 330), 'Short Tone')).id;
      large = (await addRealSound(server.services, tone(30, 0.1, 440), 'Long Tone')).id;
    });
    after(() => server.close());

    test(
      'renditions.limits.disk.reserve: room is made for the output ' +
        'before it is written, and the reservation counts in the total',
      async () => {
        const first = await fetch(await signedUrl(server, key, small, 'stream', '?loudness=-20'));
        assert.equal(first.status, 200);
        await first.arrayBuffer();
        stored = (await server.services.renditions.stats()).bytes;
        assert.ok(stored > 0);
        // 30 s at 96 kHz, stereo, 24 bits: about 17 MB estimated, more than the bound with the stored one.
        const choice = { format: 'wav', sampleRate: 96_000, channels: 2, bitDepth: 24 } as const;
        const estimate = Math.ceil(estimateRenditionBytes((await server.services.catalog.findById(large))!, choice));
        assert.ok(estimate > bound);
        const url = await signedUrl(
          server,
          key,
          large,
          'download',
          '?format=wav&sample_rate=96000&channels=2&bit_depth=24',
        );
        const making = fetch(url);
        const smallSound = (await server.services.catalog.findById(small))!;
        const largeSound = (await server.services.catalog.findById(large))!;
        // While the large one is being made (not stored yet), the small one is already gone; the total is the
        // reservation.
        const hasSmall = () => server.services.renditions.has(smallSound, { loudness: -20 });
        await eventually(hasSmall, (has) => !has, 20_000, 'the stored one removed to make room');
        assert.equal(
          await server.services.renditions.has(largeSound, choice),
          false,
          'before the large one was stored',
        );
        assert.equal((await server.services.renditions.stats()).bytes, estimate, 'the total holds the reservation');
        const response = await making;
        assert.equal(response.status, 200);
        const delivered = (await response.arrayBuffer()).byteLength;
        // The stored WAV has no tags; the delivered one carries them in chunks before its data.
        const storedLarge = await server.services.files.stat(renditionKey(largeSound.contentHash, choice));
        const stats = await server.services.renditions.stats();
        assert.equal(stats.bytes, storedLarge?.size, "the reservation became the stored file's size");
        assert.ok(delivered > stats.bytes, 'the delivered file carries its tags');
        assert.equal(stats.removed, 1);
      },
    );
  },
);
