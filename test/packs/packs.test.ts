import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { parseBuffer } from 'music-metadata';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { eventually } from '../helpers/eventually.ts';
import { withoutId3 } from '../helpers/id3.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

const run = promisify(execFile);
type PackBody = { data: { download_url: string; expires_at: string; sounds: number; estimated_bytes: number } };
type Manifest = {
  license: string;
  sounds: Array<Record<string, unknown> & { id: string; file: string; sha256: string; bytes: number }>;
};

/** The ZIP written to disk, checked by Debian's unzip (-t), and each entry read back with unzip -p. */
async function readZip(dir: string, name: string, bytes: Uint8Array) {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  const tested = await run('unzip', ['-t', file]);
  const listing = await run('unzip', ['-Z1', file]);
  const names = listing.stdout.trim().split('\n');
  const entry = async (entryName: string) =>
    (await run('unzip', ['-p', file, entryName], { encoding: 'buffer', maxBuffer: 1 << 26 })).stdout;
  return { tested: tested.stdout, names, entry };
}

describe('packs (extension): GET /api/v1/packs and the ZIP behind its signed URL', () => {
  let server: TestServer;
  const sounds: Array<{ id: string; bytes: Uint8Array; name: string }> = [];

  before(async () => {
    server = await startServer();
    // One real MP3 (its header gives sample rate and channels), two of made-up bytes.
    const synth = synthesizeSound('similar', 3);
    const { mp3, measurements } = await encodeAndMeasure(synth.audio);
    const real = await addSound(server.services, {
      name: 'Glass, "Break" #1',
      bytes: mp3,
      ...measurements,
      tags: ['glass', 'impact'],
    });
    sounds.push({ ...real, name: 'Glass, "Break" #1' });
    for (const name of ['Rain on Tin', 'Door Slam'])
      sounds.push({ ...(await addSound(server.services, { name, tags: ['house'] })), name });
  });
  after(() => server.close());

  const askPack = (key: string, query: string) => server.get(`/api/v1/packs?${query}`, { key });

  test(
    'packs.happy: the answer, then a valid ZIP of the files as ' +
      'stored, both manifests with matching SHA-256s, and LICENSE.txt',
    async () => {
      const { key } = await server.account('pro');
      const ids = sounds.map((sound) => sound.id);
      const response = await askPack(key, `ids=${ids.join(',')}`);
      assert.equal(response.status, 200);
      // Three sounds cost three requests: this call and two more.
      assert.equal(response.headers.get('x-ratelimit-remaining'), String(2500 - 3));
      const { data } = (await response.json()) as PackBody;
      assert.equal(data.sounds, 3);
      assert.equal(Date.parse(data.expires_at), Math.ceil(server.clock.now / 1000) * 1000 + 3600_000);

      const download = await fetch(data.download_url);
      assert.equal(download.status, 200);
      assert.equal(download.headers.get('content-type'), 'application/zip');
      assert.match(download.headers.get('content-disposition') ?? '', /attachment; filename="sound-pack-3\.zip"/);
      const bytes = new Uint8Array(await download.arrayBuffer());
      // The estimate is within a tenth of what came.
      assert.ok(
        Math.abs(data.estimated_bytes - bytes.length) < bytes.length * 0.1,
        `${data.estimated_bytes} vs ${bytes.length}`,
      );

      const zip = await readZip(server.dataDir, 'happy.zip', bytes);
      assert.match(zip.tested, /No errors detected/);
      const expectedNames = [`glass-break-1-${ids[0]}.mp3`, `rain-on-tin-${ids[1]}.mp3`, `door-slam-${ids[2]}.mp3`];
      assert.deepEqual(zip.names, [...expectedNames, 'manifest.json', 'manifest.csv', 'LICENSE.txt']);
      // Each file as stored, behind the sound's tags where the file is an MP3 (random bytes are served as they are).
      for (const [index, name] of expectedNames.entries())
        assert.deepEqual(withoutId3(new Uint8Array(await zip.entry(name))), sounds[index]!.bytes, name);
      const tagged = await parseBuffer(new Uint8Array(await zip.entry(expectedNames[0]!)), { mimeType: 'audio/mpeg' });
      assert.equal(tagged.common.title, 'Glass, "Break" #1', "a pack's file carries the sound's tags");
      assert.ok(tagged.native['ID3v2.4'], 'ID3v2.4');

      const manifest = JSON.parse((await zip.entry('manifest.json')).toString('utf8')) as Manifest;
      assert.equal(manifest.license, 'CC0-1.0');
      assert.deepEqual(
        manifest.sounds.map((row) => row.file),
        expectedNames,
      );
      for (const row of manifest.sounds) {
        const delivered = await zip.entry(row.file);
        assert.equal(row.sha256, createHash('sha256').update(delivered).digest('hex'), row.file);
        assert.equal(row.bytes, delivered.length);
        assert.equal(row.format, 'mp3');
      }
      const first = manifest.sounds[0]!;
      assert.equal(first.name, 'Glass, "Break" #1');
      assert.equal(first.sample_rate, 44100);
      assert.ok(first.channels === 1 || first.channels === 2);
      assert.deepEqual(first.tags, ['glass', 'impact']);
      assert.equal(typeof first.integrated_lufs, 'number');
      assert.ok(first.timing && typeof first.timing === 'object');
      assert.equal(first.source_url, null);
      // Random bytes have no header to read.
      assert.equal(manifest.sounds[1]!.sample_rate, null);

      const csv = (await zip.entry('manifest.csv')).toString('utf8').split('\r\n');
      assert.equal(
        csv[0],
        'id,name,file,format,sample_rate,channels,duration,integrated_lufs,true_peak_db,onset_ms,peak_ms,' +
          'tail_ms,category,tags,sha256,bytes,source_url',
      );
      assert.equal(csv.length, 5);
      assert.ok(csv[1]!.startsWith(`${ids[0]},"Glass, ""Break"" #1",${expectedNames[0]},mp3,44100,`), csv[1]);
      assert.ok(csv[1]!.includes(`,"glass,impact",${first.sha256},`), csv[1]);
      assert.match((await zip.entry('LICENSE.txt')).toString('utf8'), /CC0 1\.0/);
    },
  );

  test('packs.downloads: a pack counts one download per sound', async () => {
    const { key } = await server.account('pro');
    const popular = async () => {
      const response = await server.get('/api/v1/sounds/popular?limit=100', { key });
      const { data } = (await response.json()) as { data: Array<{ id: string; numDownloads: number }> };
      return data.find((sound) => sound.id === sounds[2]!.id)?.numDownloads ?? 0;
    };
    const before = await popular();
    assert.equal((await askPack(key, `ids=${sounds[2]!.id},${sounds[1]!.id}`)).status, 200);
    await eventually(popular, (count) => count === before + 1, 5000, 'one download counted');
  });

  test(
    'packs.errors: 404 names every unknown id, 400 for repeated, ' +
      'empty or too many ids; none of them counts more than the call',
    async () => {
      const { key } = await server.account('pro');
      const unknown = await askPack(key, `ids=${sounds[0]!.id},nope-one,nope-two`);
      assert.equal(unknown.status, 404);
      const { error } = (await unknown.json()) as { error: string };
      assert.match(error, /nope-one/);
      assert.match(error, /nope-two/);
      assert.doesNotMatch(error, new RegExp(sounds[0]!.id));

      const repeated = await askPack(key, `ids=${sounds[0]!.id},${sounds[1]!.id},${sounds[0]!.id}`);
      assert.equal(repeated.status, 400);
      assert.match(((await repeated.json()) as { error: string }).error, /repeated/);
      const tooMany = await askPack(key, `ids=${Array.from({ length: 101 }, (_, i) => `s${i}`).join(',')}`);
      assert.equal(tooMany.status, 400);
      assert.match(((await tooMany.json()) as { error: string }).error, /at most 100/);
      assert.equal((await askPack(key, 'ids=')).status, 400);
      assert.equal((await askPack(key, '')).status, 400);
      // Four calls, one request each: nothing else was charged.
      const after = await server.get('/api/v1/sounds/popular?limit=1', { key });
      assert.equal(after.headers.get('x-ratelimit-remaining'), String(2500 - 6));
    },
  );

  test(
    'packs.quota: 429 when the quota cannot cover one ' + 'request per sound, with nothing counted for the pack',
    async () => {
      const { key, account } = await server.account('pro');
      // Leave two requests: the call and one more, one short of a three-sound pack.
      await server.services.quota.consume(account.id, null, 2500, server.clock.now, 2498);
      const refused = await askPack(key, `ids=${sounds.map((sound) => sound.id).join(',')}`);
      assert.equal(refused.status, 429);
      const body = (await refused.json()) as { error: string; limit: number; reset: number };
      assert.match(body.error, /costs 3 requests/);
      assert.equal(body.limit, 2500);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      // The refused call itself counted, as a 404 would; the one left buys a one-sound pack, and then none.
      const one = await askPack(key, `ids=${sounds[0]!.id}`);
      assert.equal(one.status, 200);
      assert.equal(one.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await askPack(key, `ids=${sounds[0]!.id}`)).status, 429);
    },
  );

  test('packs.security: a tampered or expired pack URL is 403', async () => {
    const { key } = await server.account('pro');
    const { data } = (await (await askPack(key, `ids=${sounds[0]!.id},${sounds[1]!.id}`)).json()) as PackBody;
    const url = new URL(data.download_url);
    const changed = (edit: (params: URLSearchParams) => void) => {
      const params = new URLSearchParams(url.search);
      edit(params);
      return `${url.origin}${url.pathname}?${params.toString().replaceAll('%2C', ',')}`;
    };
    assert.equal((await fetch(changed((params) => params.set('ids', sounds[0]!.id)))).status, 403);
    assert.equal(
      (await fetch(changed((params) => params.set('ids', `${sounds[0]!.id},${sounds[1]!.id},${sounds[2]!.id}`))))
        .status,
      403,
    );
    // The first character changed (to another): the last may carry only padding bits, and may be 'A' already.
    assert.equal(
      (
        await fetch(
          changed((params) =>
            params.set('sig', `${params.get('sig')!.startsWith('A') ? 'B' : 'A'}${params.get('sig')!.slice(1)}`),
          ),
        )
      ).status,
      403,
    );
    assert.equal((await fetch(changed((params) => params.set('loudness', '-16')))).status, 403);
    assert.equal((await fetch(`${url.origin}/media/packs/other.zip${url.search}`)).status, 403);
    // A pack URL is no sound's URL.
    assert.equal((await fetch(`${url.origin}/media/${sounds[0]!.id}.mp3${url.search}`)).status, 403);
    server.clock.advance(3601_000);
    const expired = await fetch(data.download_url);
    assert.equal(expired.status, 403);
    assert.match(((await expired.json()) as { error: string }).error, /expired/);
  });
});
