import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rm, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { streamPack } from '../../src/packs/zip.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

const run = promisify(execFile);

/**
 * Python's zipfile, a reader that does not share yazl's code: lists the entries, checks every
 * CRC (testzip), checks each file's SHA-256 against manifest.json, and says which records are
 * ZIP64 ones (the end records, and each entry's 0x0001 extra field).
 */
const PYTHON_CHECK = `
import hashlib, json, struct, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    manifest = json.loads(z.read('manifest.json'))
    hashes = {}
    for row in manifest['sounds']:
        digest = hashlib.sha256()
        with z.open(row['file']) as f:
            for block in iter(lambda: f.read(1 << 20), b''):
                digest.update(block)
        hashes[row['file']] = digest.hexdigest() == row['sha256']
    def zip64_extra(info):
        extra, at = info.extra, 0
        while at + 4 <= len(extra):
            kind, size = struct.unpack('<HH', extra[at:at + 4])
            if kind == 1: return True
            at += 4 + size
        return False
    entries = [{'name': i.filename, 'size': i.file_size, 'offset': i.header_offset, 'zip64': zip64_extra(i)} for i in z.infolist()]
with open(sys.argv[1], 'rb') as f:
    f.seek(-98, 2)
    tail = f.read()
print(json.dumps({'bad': bad, 'hashes': hashes, 'entries': entries,
                  'zip64_end': tail.find(b'PK\\x06\\x06') >= 0 and tail.find(b'PK\\x06\\x07') >= 0}))
`;

interface ZipCheck {
  bad: string | null;
  hashes: Record<string, boolean>;
  entries: Array<{ name: string; size: number; offset: number; zip64: boolean }>;
  zip64_end: boolean;
}

async function pythonCheck(file: string): Promise<ZipCheck> {
  const { stdout } = await run('python3', ['-c', PYTHON_CHECK, file], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as ZipCheck;
}

describe(
  'packs.zip64: ZIP64 records, as a pack past 4 GiB or 65,535 ' +
    "entries needs them, read by python3's zipfile and unzip",
  () => {
    let server: TestServer;

    before(async () => {
      server = await startServer();
    });
    after(() => server.close());

    test(
      "packs.zip64.forced: the writer's ZIP64 path forced on a small pack; every " +
        'entry and the end carry ZIP64 records, and both readers read it whole',
      async () => {
        const ids: string[] = [];
        for (const name of ['Zip Sixty Four', 'Big Archive']) ids.push((await addSound(server.services, { name })).id);
        const sounds = await Promise.all(ids.map(async (id) => (await server.services.catalog.findById(id))!));
        const file = path.join(server.dataDir, 'forced-zip64.zip');
        await pipeline(
          streamPack(sounds, {}, server.services, new AbortController().signal, { forceZip64: true }),
          createWriteStream(file),
        );

        const check = await pythonCheck(file);
        assert.equal(check.bad, null, 'every CRC right');
        assert.deepEqual(Object.values(check.hashes), [true, true], 'every SHA-256 of manifest.json right');
        assert.deepEqual(check.entries.map((entry) => entry.name).slice(2), [
          'manifest.json',
          'manifest.csv',
          'LICENSE.txt',
        ]);
        assert.ok(
          check.entries.every((entry) => entry.zip64),
          'each entry has a ZIP64 extra field',
        );
        assert.ok(check.zip64_end, 'ZIP64 end of central directory record and locator');
        assert.match((await run('unzip', ['-t', file])).stdout, /No errors detected/);
      },
    );

    // Minutes of I/O and hashing: run where the hour-long rendition runs (test/audio/render-long.test.ts), not in every
    // pass.
    const skip =
      process.env.SOUND_CATALOG_LONG_TESTS === '0'
        ? 'SOUND_CATALOG_LONG_TESTS=0: the 4 GiB pack ran in an earlier pass'
        : false;
    test('packs.zip64.long: a real pack past 4 GiB (one file of 4 GiB + 1 MiB, ' +
      "one after it) streamed from its URL, read whole by python3's zipfile", {
      skip,
      timeout: 30 * 60_000,
    }, async (context) => {
      if (server.services.config.s3 !== null)
        return context.skip('needs the media folder, where a sparse file stands in for a 4 GiB sound');
      const big = await addSound(server.services, { name: 'Four Gigabytes' });
      const small = await addSound(server.services, { name: 'After Four Gigabytes' });
      const bigSound = await server.services.catalog.findById(big.id);
      // Sparse: 4 GiB of size, no disk taken; read back as its first 2 KiB and then zeros.
      const bigSize = 4 * 1024 ** 3 + (1 << 20);
      await truncate(path.join(server.dataDir, 'audio', bigSound!.fileKey), bigSize);

      const { key } = await server.account('enterprise');
      const answer = await server.get(`/api/v1/packs?ids=${big.id},${small.id}`, { key });
      assert.equal(answer.status, 200);
      const { data } = (await answer.json()) as { data: { download_url: string } };
      const response = await fetch(data.download_url);
      assert.equal(response.status, 200);
      const file = path.join(server.dataDir, 'long-zip64.zip');
      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
      try {
        await pipeline(Readable.fromWeb(response.body! as WebReadableStream<Uint8Array>), createWriteStream(file));
      } finally {
        clearInterval(sampler);
      }
      try {
        assert.ok((await stat(file)).size > bigSize);
        // The server and this client share the process: nothing of the 4 GiB is held while it streams.
        assert.ok(
          peakRss - rssBefore < 256 * 1024 ** 2,
          `resident memory grew by ${((peakRss - rssBefore) / 1024 ** 2).toFixed(0)} MB`,
        );
        const check = await pythonCheck(file);
        assert.equal(check.bad, null, 'every CRC right');
        assert.ok(Object.values(check.hashes).every(Boolean), 'every SHA-256 of manifest.json right');
        const [first, second] = check.entries;
        assert.equal(first!.size, bigSize);
        assert.ok(first!.zip64, 'the 4 GiB entry has a ZIP64 extra field');
        assert.ok(
          second!.offset > 0xffffffff && second!.zip64,
          'the entry after it starts past 4 GiB, in a ZIP64 field',
        );
        assert.ok(check.zip64_end, 'ZIP64 end records');
      } finally {
        await rm(file, { force: true });
      }
    });
  },
);
