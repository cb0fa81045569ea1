import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { renditionKey } from '../../src/media/renditions.ts';
import { withoutId3 } from '../helpers/id3.ts';
import { startServer, TestClock, type TestServer } from '../helpers/server.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';
import { signedUrl } from './helpers.ts';

/**
 * RENDITIONS_MAX_BYTES: stored renditions stay under it, the least recently served go first, several instances
 * together.
 */
describe('renditions.disk: bounded by RENDITIONS_MAX_BYTES, least recently served first, shared by instances', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const server of servers.slice(1)) await server.close({ keepData: true });
    await servers[0]?.close();
  });

  test(
    'renditions.disk.evict: two instances keep one total; the least recently ' +
      'served is removed (record, then file) and made again on its next request',
    async () => {
      const clock = new TestClock();
      // A first start measures what one rendition occupies; the bound is then set to hold two, not three.
      const first = await startServer({ clock });
      const { key } = await first.account('enterprise');
      const ids = [];
      for (const frequency of [440, 550, 660])
        ids.push((await addRealSound(first.services, tone(2, 0.1, frequency), `Tone ${frequency}`)).id);
      const [x, y, z] = ids as [string, string, string];
      const urls = {
        x: await signedUrl(first, key, x, 'stream', '?loudness=-20'),
        y: await signedUrl(first, key, y, 'stream', '?loudness=-20'),
        z: await signedUrl(first, key, z, 'stream', '?loudness=-20'),
      };
      const here = (server: TestServer, url: string) => server.url + new URL(url).pathname + new URL(url).search;
      const fetchOk = async (server: TestServer, url: string) => {
        const response = await fetch(here(server, url));
        assert.equal(response.status, 200, url);
        return new Uint8Array(await response.arrayBuffer());
      };
      const xBytes = await fetchOk(first, urls.x);
      const one = (await first.services.renditions.stats()).bytes;
      // What is stored is the rendition without the sound's tags, which are written as it is delivered.
      const xSound = (await first.services.catalog.findById(x))!;
      const stored = await first.services.files.stat(renditionKey(xSound.contentHash, { loudness: -20 }));
      assert.equal(one, stored?.size, "the record holds the stored file's size");
      assert.equal(withoutId3(xBytes).byteLength, one, 'the delivered file is its tags, then the stored file');
      const dataDir = first.dataDir;
      await first.close({ keepData: true });
      const env = { RENDITIONS_MAX_BYTES: String(Math.floor(one * 2.5)) };
      const a = await startServer({ clock, dataDir, env });
      servers.push(a);
      const b = await startServer({ clock, dataDir, env });
      servers.push(b);
      // Keys in the shared media store, so this holds on a folder and on S3 alike.
      const fileOf = async (server: TestServer, id: string) => {
        const sound = (await server.services.catalog.findById(id))!;
        return renditionKey(sound.contentHash, { loudness: -20 });
      };
      const exists = async (key: string) => (await a.services.files.stat(key)) !== null;

      clock.advance(1000);
      await fetchOk(b, urls.y);
      clock.advance(1000);
      // Each instance writes its own address into the tags: the stored part behind them is the same.
      assert.deepEqual(withoutId3(await fetchOk(a, urls.x)), withoutId3(xBytes), 'served from the store');
      assert.equal((await a.services.renditions.stats()).made, 0, 'a stored rendition is not made again');
      clock.advance(1000);
      await fetchOk(a, urls.z);
      // Y, made by the other instance and never served since, was the least recently served.
      assert.equal(await exists(await fileOf(a, y)), false, 'Y removed');
      assert.equal(await exists(await fileOf(a, x)), true, 'X, served since, kept');
      assert.equal(await exists(await fileOf(a, z)), true);
      const afterZ = await a.services.renditions.stats();
      assert.deepEqual({ made: afterZ.made, removed: afterZ.removed }, { made: 1, removed: 1 });
      assert.ok(afterZ.bytes <= Math.floor(one * 2.5), `stored ${afterZ.bytes} bytes, bound ${Math.floor(one * 2.5)}`);

      clock.advance(1000);
      await fetchOk(b, urls.y);
      const afterY = await b.services.renditions.stats();
      assert.equal(afterY.made, 2, 'Y made again on its next request, by the instance that removed nothing of it');
      assert.equal(await exists(await fileOf(b, y)), true);
      assert.equal(await exists(await fileOf(b, x)), false, 'now X, served longest ago, is removed');
      assert.ok(afterY.bytes <= Math.floor(one * 2.5));
      // A request whose record is there but whose file vanished makes it again.
      const zFile = await fileOf(a, z);
      await a.services.files.remove(zFile);
      await fetchOk(a, urls.z);
      assert.equal(await exists(zFile), true);
    },
  );
});
