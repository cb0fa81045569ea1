import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { ffmpegDecode, ffprobeStreamTag, needsFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { callTool, connectMcp, textOf } from '../mcp/mcp-client.ts';

const run = promisify(execFile);
type PackBody = { data: { download_url: string; sounds: number; estimated_bytes: number } };
type Manifest = { sounds: Array<{ id: string; file: string }> };
type HowlerMap = { src: string[]; sprite: Record<string, [number, number] | [number, number, boolean]> };
type PhaserMap = { resources: string[]; spritemap: Record<string, { start: number; end: number; loop: boolean }> };

const RATE = 44_100;

/** The ZIP on disk, tested by Debian's unzip, its entries listed and read back with unzip -p. */
async function readZip(dir: string, name: string, bytes: Uint8Array) {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  assert.match((await run('unzip', ['-t', file])).stdout, /No errors detected/);
  const names = (await run('unzip', ['-Z1', file])).stdout.trim().split('\n');
  const entry = async (entryName: string) =>
    (await run('unzip', ['-p', file, entryName], { encoding: 'buffer', maxBuffer: 1 << 28 })).stdout;
  return { names, entry };
}

/**
 * Where `wanted` sits in `haystack` around `expectedAt` (within ±`search` samples), by the
 * normalized cross-correlation of the first channel, and that correlation.
 */
function bestAlignment(haystack: Float32Array, wanted: Float32Array, expectedAt: number, search: number) {
  let best = { lag: 0, correlation: -Infinity };
  for (let lag = -search; lag <= search; lag++) {
    let dot = 0;
    let a2 = 0;
    let b2 = 0;
    for (let i = 0; i < wanted.length; i++) {
      const a = haystack[expectedAt + lag + i] ?? 0;
      const b = wanted[i]!;
      dot += a * b;
      a2 += a * a;
      b2 += b * b;
    }
    const correlation = dot / Math.sqrt(a2 * b2 || 1);
    if (correlation > best.correlation) best = { lag, correlation };
  }
  return best;
}

/** RMS of the difference, relative to the RMS of `reference`. */
function relativeRmsError(actual: Float32Array, reference: Float32Array): number {
  let error = 0;
  let power = 0;
  for (let i = 0; i < reference.length; i++) {
    error += (actual[i]! - reference[i]!) ** 2;
    power += reference[i]! ** 2;
  }
  return Math.sqrt(error / power);
}

describe('packs.options: naming=ucs and sprite=true on GET /api/v1/packs and get_pack_url', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  const real: Array<{ id: string; bytes: Uint8Array; name: string }> = [];

  const remaining = async () =>
    Number((await server.get('/api/v1/sounds/popular?limit=1', { key })).headers.get('x-ratelimit-remaining'));

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    client = await connectMcp(server, key);
    // Real MP3s: the sprite decodes them.
    for (const [index, name] of ['Laser Zap', 'Coin Pickup', 'Wind Gust'].entries()) {
      const { mp3, measurements } = await encodeAndMeasure(synthesizeSound('pack-sprite', index).audio);
      real.push({ ...(await addSound(server.services, { name, bytes: mp3, ...measurements })), name });
    }
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test('packs.options.ucs: UCS-shaped names, unique, CatIDs from tags or category, listed by the manifests', async () => {
    const fixtures = [
      { name: 'Door Slam', tags: ['doors', 'wood'], category: 'SFX' as const },
      { name: 'door  slam!', tags: ['doors', 'wood'], category: 'SFX' as const },
      { name: 'Wind_gust über the hills and far away beyond', tags: ['gunauto'], category: 'SFX' as const },
      { name: '***', tags: [], category: 'AMBIENT' as const },
      { name: 'Soft Piano', tags: ['doors'], category: 'MUSIC' as const },
      { name: 'Beat', tags: [], category: 'LOFI' as const },
    ];
    const ids = [];
    for (const fixture of fixtures) ids.push((await addSound(server.services, fixture)).id);
    const response = await server.get(`/api/v1/packs?ids=${ids.join(',')}&naming=ucs`, { key });
    assert.equal(response.status, 200, await response.clone().text());
    const { data } = (await response.json()) as PackBody;
    assert.match(data.download_url, /&naming=ucs&exp=/);
    assert.doesNotMatch(data.download_url, /account=/, 'naming alone costs nothing, so the URL names no account');
    const download = await fetch(data.download_url);
    assert.equal(download.status, 200);
    const zip = await readZip(server.dataDir, 'ucs.zip', new Uint8Array(await download.arrayBuffer()));
    const expected = [
      'DOORWood_Door Slam_SoundCatalog_SoundCatalog.mp3',
      'DOORWood_Door Slam 2_SoundCatalog_SoundCatalog.mp3',
      'GUNAuto_Wind Gust Uber The Hills And_SoundCatalog_SoundCatalog.mp3',
      'AMBMisc_Sound_SoundCatalog_SoundCatalog.mp3',
      'DOORMisc_Soft Piano_SoundCatalog_SoundCatalog.mp3',
      'MUSCMisc_Beat_SoundCatalog_SoundCatalog.mp3',
    ];
    assert.deepEqual(zip.names, [...expected, 'manifest.json', 'manifest.csv', 'LICENSE.txt']);
    for (const name of expected) {
      const [catId, fxName, creator, source] = name.replace(/\.mp3$/, '').split('_');
      assert.match(catId!, /^[A-Z]+[A-Za-z]*$/);
      assert.match(fxName!, /^[A-Z0-9][A-Za-z0-9]*( [A-Z0-9][A-Za-z0-9]*)*$/, 'Title Case words, no underscores');
      assert.ok(fxName!.length <= 30, fxName);
      assert.deepEqual([creator, source], ['SoundCatalog', 'SoundCatalog']);
    }
    assert.equal(new Set(expected.map((name) => name.toLowerCase())).size, expected.length);
    const manifest = JSON.parse((await zip.entry('manifest.json')).toString('utf8')) as Manifest;
    assert.deepEqual(
      manifest.sounds.map((row) => [row.id, row.file]),
      ids.map((id, index) => [id, expected[index]]),
    );
    assert.match(
      (await zip.entry('manifest.csv')).toString('utf8'),
      /,DOORWood_Door Slam 2_SoundCatalog_SoundCatalog\.mp3,/,
    );
  });

  test(
    'packs.options.sprite: sprite.ogg, sprite.mp3 and the Howler and Phaser maps; ffmpeg finds ' +
      "each sound's samples at the map's start and end, in both files; the fetch pays two renditions",
    needsFfmpeg,
    async () => {
      const ids = real.map((sound) => sound.id);
      const before = await remaining();
      const response = await server.get(`/api/v1/packs?ids=${ids.join(',')}&sprite=true&naming=default`, { key });
      assert.equal(response.status, 200, await response.clone().text());
      const { data } = (await response.json()) as PackBody;
      assert.match(data.download_url, /&sprite=true&account=[\w-]+&exp=/);
      const download = await fetch(data.download_url);
      assert.equal(download.status, 200);
      const bytes = new Uint8Array(await download.arrayBuffer());
      // Three requests for the pack, 2 x 10 for the sprite (two renditions of under ten minutes), the popular call.
      assert.equal(before - (await remaining()), 3 + 20 + 1);
      const relative = Math.abs(data.estimated_bytes - bytes.length) / bytes.length;
      assert.ok(relative < 0.6, `estimated ${data.estimated_bytes} for ${bytes.length} bytes`);

      const zip = await readZip(server.dataDir, 'sprite.zip', bytes);
      const files = real.map((sound) => zip.names.find((name) => name.endsWith(`-${sound.id}.mp3`))!);
      const spriteFiles = ['sprite.ogg', 'sprite.mp3', 'sprite.howler.json', 'sprite.phaser.json'];
      assert.deepEqual(zip.names, [...files, ...spriteFiles, 'manifest.json', 'manifest.csv', 'LICENSE.txt']);
      const howler = JSON.parse((await zip.entry('sprite.howler.json')).toString('utf8')) as HowlerMap;
      const phaser = JSON.parse((await zip.entry('sprite.phaser.json')).toString('utf8')) as PhaserMap;
      assert.deepEqual(howler.src, ['sprite.ogg', 'sprite.mp3']);
      assert.deepEqual(phaser.resources, ['sprite.ogg', 'sprite.mp3']);
      const keys = files.map((file) => file.replace(/\.mp3$/, ''));
      assert.deepEqual(Object.keys(howler.sprite), keys);
      assert.deepEqual(Object.keys(phaser.spritemap), keys);

      // ffmpeg sets the encoder tag only when the LAME tag's CRC is valid: its delay and padding are then trimmed.
      assert.match(ffprobeStreamTag(await zip.entry('sprite.mp3'), 'mp3', 'encoder'), /^LAME/);
      const decoded = {
        ogg: ffmpegDecode(await zip.entry('sprite.ogg'), 'ogg', 2),
        mp3: ffmpegDecode(await zip.entry('sprite.mp3'), 'mp3', 2),
      };
      let previousEnd = 0;
      const gaps: Array<[number, number]> = [];
      for (const [index, sound] of real.entries()) {
        const [offsetMs, durationMs, loop] = howler.sprite[keys[index]!]!;
        const { start, end, loop: phaserLoop } = phaser.spritemap[keys[index]!]!;
        assert.equal(loop, undefined, 'not a loop');
        assert.equal(phaserLoop, false);
        const startSample = Math.round(start * RATE);
        const endSample = Math.round(end * RATE);
        // The two maps agree to the sample, and a sample's time rounds back to it.
        assert.equal(Math.round((offsetMs * RATE) / 1000), startSample);
        assert.equal(Math.round(((offsetMs + durationMs) * RATE) / 1000), endSample);
        assert.ok(Math.abs(start * RATE - startSample) < 0.05 && Math.abs(end * RATE - endSample) < 0.05);
        // A quarter second of silence between two sounds.
        if (index > 0) {
          assert.equal(startSample - previousEnd, RATE / 4);
          gaps.push([previousEnd, startSample]);
        }
        previousEnd = endSample;

        // The sound's own MP3 decoded by ffmpeg (gapless, at 44.1 kHz stereo) is what the segment holds.
        const own = ffmpegDecode(sound.bytes, 'mp3', 2, ['-ar', String(RATE)]);
        assert.equal(endSample - startSample, own[0]!.length, `${sound.name}: the segment is the sound's length`);
        for (const [format, channels] of Object.entries(decoded)) {
          assert.ok(channels[0]!.length >= endSample, `${format}: the file reaches the last sound's end`);
          const segment = channels[0]!.subarray(startSample, endSample);
          const alignment = bestAlignment(channels[0]!, own[0]!, startSample, 32);
          assert.equal(alignment.lag, 0, `${format} ${sound.name}: found at the map's start, to the sample`);
          assert.ok(alignment.correlation > 0.99, `${format} ${sound.name}: correlation ${alignment.correlation}`);
          const error = relativeRmsError(segment, own[0]!);
          assert.ok(error < 0.08, `${format} ${sound.name}: relative RMS error ${error}`);
        }
      }
      // Between the sounds, silence (a few milliseconds left for the codecs' ringing at its edges).
      assert.equal(gaps.length, real.length - 1);
      for (const [format, channels] of Object.entries(decoded)) {
        for (const [from, to] of gaps) {
          const gap = channels[0]!.subarray(from + RATE / 100, to - RATE / 100);
          const peak = gap.reduce((max, sample) => Math.max(max, Math.abs(sample)), 0);
          assert.ok(peak < 0.01, `${format}: the gap at ${from} peaks at ${peak}`);
        }
      }
    },
  );

  test(
    'packs.options.sprite-trim: with trim=true each sound in the sprite is its onset-to-tail stretch, ' +
      'and no sprite file is left behind',
    needsFfmpeg,
    async () => {
      const sound = real[2]!;
      const stored = await server.services.catalog.findById(sound.id);
      const { onset_ms: onset, tail_ms: tail } = stored!.timing;
      assert.ok(onset !== null && tail !== null && tail > onset);
      const response = await server.get(`/api/v1/packs?ids=${sound.id},${real[0]!.id}&sprite=true&trim=true`, { key });
      assert.equal(response.status, 200, await response.clone().text());
      const { data } = (await response.json()) as PackBody;
      const download = await fetch(data.download_url);
      assert.equal(download.status, 200);
      const zip = await readZip(server.dataDir, 'trim.zip', new Uint8Array(await download.arrayBuffer()));
      const phaser = JSON.parse((await zip.entry('sprite.phaser.json')).toString('utf8')) as PhaserMap;
      const [first] = Object.values(phaser.spritemap);
      assert.equal(first!.start, 0);
      assert.ok(Math.abs((first!.end - first!.start) * 1000 - (tail - onset)) < 0.05, `${first!.end} s`);
      await eventually(
        async () => (await readdir(tmpdir())).filter((name) => name.startsWith('sound-catalog-sprite-')),
        (left) => left.length === 0,
        2000,
        'the sprite files are removed once the ZIP has ended',
      );
    },
  );

  test('packs.options.sprite-left: a client that leaves before the sprite is made pays nothing for it', async () => {
    const response = await server.get(`/api/v1/packs?ids=${real.map((sound) => sound.id).join(',')}&sprite=true`, {
      key,
    });
    const { data } = (await response.json()) as PackBody;
    const before = await remaining();
    const left = new AbortController();
    const download = await fetch(data.download_url, { signal: left.signal });
    assert.equal(download.status, 200);
    // The first bytes (the sounds come first, the sprite after them), then the client leaves.
    await download.body!.getReader().read();
    left.abort();
    // The sprite's price, taken when the fetch started, is given back: only the popular calls count.
    let calls = 0;
    const counted = async () => {
      calls++;
      return remaining();
    };
    await eventually(counted, (now) => now === before - calls, 5000, 'the refund');
    await eventually(
      async () => (await readdir(tmpdir())).filter((name) => name.startsWith('sound-catalog-sprite-')),
      (files) => files.length === 0,
      5000,
      'no sprite files left',
    );
  });

  test('packs.options.errors: bad values are 400s naming the parameter; a sprite too long is refused', async () => {
    const ids = real.map((sound) => sound.id).join(',');
    for (const [query, param] of [
      ['naming=UCS', 'naming'],
      ['naming=', 'naming'],
      ['sprite=yes', 'sprite'],
      ['sprite=1', 'sprite'],
    ] as const) {
      const response = await server.get(`/api/v1/packs?ids=${ids}&${query}`, { key });
      assert.equal(response.status, 400, query);
      assert.match(await response.text(), new RegExp(param), query);
    }
    const long = await addSound(server.services, { name: 'Long Drone', duration: 700 });
    const before = await remaining();
    const response = await server.get(`/api/v1/packs?ids=${long.id}&sprite=true`, { key });
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { error: string }).error, /at most 600 seconds/);
    // The refused call is the only request counted, then the popular call.
    assert.equal(before - (await remaining()), 2);
    const withoutSprite = await server.get(`/api/v1/packs?ids=${long.id}`, { key });
    assert.equal(withoutSprite.status, 200);
  });

  test('packs.options.signed: the options are signed; a URL with one removed or added is refused', async () => {
    const response = await server.get(`/api/v1/packs?ids=${real[0]!.id}&sprite=true&naming=ucs`, { key });
    const { data } = (await response.json()) as PackBody;
    assert.match(data.download_url, /&naming=ucs&sprite=true&account=/);
    const removed = data.download_url.replace('&naming=ucs', '');
    assert.equal((await fetch(removed)).status, 403);
    const plain = (await (await server.get(`/api/v1/packs?ids=${real[0]!.id}`, { key })).json()) as PackBody;
    const added = plain.data.download_url.replace('&exp=', '&sprite=true&exp=');
    assert.equal((await fetch(added)).status, 403);
  });

  test('packs.options.mcp: get_pack_url takes naming and sprite, and refuses bad values', async () => {
    const result = await callTool(client, 'get_pack_url', { ids: [real[1]!.id], naming: 'ucs', sprite: true });
    assert.equal(result.isError, undefined, textOf(result));
    const { download_url: url } = result.structuredContent as { download_url: string };
    assert.match(url, /&naming=ucs&sprite=true&account=/);
    const download = await fetch(url);
    assert.equal(download.status, 200);
    const zip = await readZip(server.dataDir, 'mcp.zip', new Uint8Array(await download.arrayBuffer()));
    assert.deepEqual(zip.names.slice(0, 5), [
      'DSGNMisc_Coin Pickup_SoundCatalog_SoundCatalog.mp3',
      'sprite.ogg',
      'sprite.mp3',
      'sprite.howler.json',
      'sprite.phaser.json',
    ]);
    const howler = JSON.parse((await zip.entry('sprite.howler.json')).toString('utf8')) as HowlerMap;
    assert.deepEqual(Object.keys(howler.sprite), ['DSGNMisc_Coin Pickup_SoundCatalog_SoundCatalog']);
    const bad = await callTool(client, 'get_pack_url', { ids: [real[1]!.id], naming: 'flat' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /naming/);
    const notBoolean = await callTool(client, 'get_pack_url', { ids: [real[1]!.id], sprite: 'yes' });
    assert.equal(notBoolean.isError, true);
    assert.match(textOf(notBoolean), /sprite/);
  });
});
