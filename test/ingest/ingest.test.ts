import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeAudio } from '../../src/audio/decode/index.ts';
import { ffmpegEbur128, hasFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { concat, silence, sine, stereo } from '../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../audio/helpers/wav.ts';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const RATE = 48_000;
/** analysis.md's example: 300 ms of silence, a tone burst, silence from 1500 ms on. */
const burst = () => concat(silence(0.3 * RATE), sine(RATE, 1000, -12, 1.2 * RATE), silence(0.5 * RATE));

describe('ingest', () => {
  let folder: string;
  let server: TestServer;
  let env: Record<string, string>;
  let key: string;
  let first: { added: number; updated: number; failed: Array<{ file: string; reason: string }> };

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-ingest-'));
    await mkdir(path.join(folder, 'nested'));
    await writeFile(
      path.join(folder, 'glass_break-small.wav'),
      encodeWavFloat32({ sampleRate: RATE, channels: stereo(burst()) }),
    );
    await writeFile(
      path.join(folder, 'glass_break-small.json'),
      JSON.stringify({
        name: 'Glass Break Small',
        description: 'A small window pane shatters',
        tags: 'Glass, break ,impact',
        category: 'sfx',
        sample: true,
      }),
    );
    await writeFile(
      path.join(folder, 'nested', 'mono-tone.wav'),
      encodeWavFloat32({ sampleRate: 44_100, channels: [sine(44_100, 440, -20, 44_100)] }),
    );
    await writeFile(path.join(folder, 'corrupt.wav'), new Uint8Array(4000).fill(7));
    await writeFile(
      path.join(folder, 'bad-category.wav'),
      encodeWavFloat32({ sampleRate: RATE, channels: [sine(RATE, 200, -20, RATE / 2)] }),
    );
    await writeFile(path.join(folder, 'bad-category.json'), JSON.stringify({ category: 'polka' }));
    await writeFile(
      path.join(folder, 'bad-json.wav'),
      encodeWavFloat32({ sampleRate: RATE, channels: [sine(RATE, 300, -20, RATE / 2)] }),
    );
    await writeFile(path.join(folder, 'bad-json.json'), '{ "name": ');
    await writeFile(path.join(folder, 'notes.txt'), 'not audio, not picked up');
    if (hasFfmpeg) {
      const tone = path.join(folder, 'nested', 'mono-tone.wav');
      execFileSync('ffmpeg', ['-v', 'error', '-i', tone, path.join(folder, 'nested', 'tone.flac')]);
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-i',
        path.join(folder, 'glass_break-small.wav'),
        '-c:a',
        'libvorbis',
        path.join(folder, 'nested', 'burst.ogg'),
      ]);
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-i',
        path.join(folder, 'glass_break-small.wav'),
        '-c:a',
        'libmp3lame',
        '-q:a',
        '4',
        path.join(folder, 'nested', 'burst-lame.mp3'),
      ]);
    }
    server = await startServer();
    env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
    ({ key } = await server.account('pro'));
    const result = await runCli(['ingest', folder, '--json'], env);
    assert.equal(result.status, 0, result.stderr);
    first = result.json;
  });
  after(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  test('ingest.summary: good files go in; each bad one is reported with its reason', () => {
    assert.equal(first.added, hasFfmpeg ? 5 : 2);
    assert.equal(first.updated, 0);
    const reasons = Object.fromEntries(first.failed.map((failure) => [path.basename(failure.file), failure.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), ['bad-category.wav', 'bad-json.wav', 'corrupt.wav']);
    assert.match(reasons['bad-category.wav']!, /unknown category "polka"/);
    assert.match(reasons['bad-json.wav']!, /not valid JSON/);
    assert.match(reasons['corrupt.wav']!, /not a recognised audio file|not .*audio/i);
  });

  test(
    'ingest.metadata: the JSON beside a file gives ' + 'name, tags, category and sample; defaults otherwise',
    async () => {
      const { data } = await (await server.get('/api/v1/sounds?q=glass', { key })).json();
      assert.equal(data.length, 1);
      const glass = data[0];
      assert.equal(glass.name, 'Glass Break Small');
      assert.equal(glass.description, 'A small window pane shatters');
      assert.deepEqual(glass.tags, ['glass', 'break', 'impact']);
      assert.equal(glass.category, 'SFX');
      assert.equal(glass.license, 'CC0');
      const samples = await (await server.get('/api/v1/sounds/sample')).json();
      assert.deepEqual(
        samples.data.map((s: { id: string }) => s.id),
        [glass.id],
      );
      const {
        data: [tone],
      } = await (await server.get('/api/v1/sounds?q=mono%20tone', { key })).json();
      assert.equal(tone.name, 'Mono Tone');
      assert.deepEqual(tone.tags, []);
      assert.equal(tone.category, null);
    },
  );

  test('ingest.measure: duration, timing and loudness are measured on the delivered MP3', async () => {
    const {
      data: [glass],
    } = await (await server.get('/api/v1/sounds?q=glass', { key })).json();
    assert.ok(Math.abs(glass.duration - 2.0) < 0.001, `duration ${glass.duration}`);
    assert.ok(Math.abs(glass.timing.onset_ms - 300) < 2, `onset ${glass.timing.onset_ms}`);
    // MP3 smears an abrupt stop by a few milliseconds; analysis.md promises "about 1500".
    assert.ok(Math.abs(glass.timing.tail_ms - 1500) < 10, `tail ${glass.timing.tail_ms}`);
    assert.ok(glass.timing.peak_ms > 300 && glass.timing.peak_ms < 1500);
    // A 1 kHz sine at -12 dBFS in both channels reads -12 LUFS alone; the blocks that straddle
    // the silences pull the gated mean down by under a LU.
    assert.ok(
      glass.loudness.integrated_lufs < -12 && glass.loudness.integrated_lufs > -13.5,
      `loudness ${glass.loudness.integrated_lufs}`,
    );
    assert.ok(Math.abs(glass.loudness.true_peak_db - -12) < 0.5, `true peak ${glass.loudness.true_peak_db}`);

    const mp3 = new Uint8Array(await (await fetch(glass.download_url)).arrayBuffer());
    if (hasFfmpeg) {
      // What a user measures on the file they download is what the catalog says.
      const downloaded = path.join(folder, 'downloaded.mp3');
      await writeFile(downloaded, mp3);
      const reference = await ffmpegEbur128(downloaded);
      assert.ok(
        Math.abs(reference.integratedLufs - glass.loudness.integrated_lufs) <= 0.1,
        `ffmpeg ${reference.integratedLufs}`,
      );
      assert.ok(
        Math.abs(reference.truePeakDb - glass.loudness.true_peak_db) <= 0.2,
        `ffmpeg true peak ${reference.truePeakDb}`,
      );
      await rm(downloaded);
    }
    assert.equal(
      String.fromCharCode(...mp3.slice(0, 3)) === 'ID3' || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0),
      true,
      'an MP3 file',
    );
    const decoded = await decodeAudio(mp3);
    assert.equal(decoded.channels[0]!.length, 2 * RATE, 'gapless: exactly the source samples');
    assert.equal(decoded.channels.length, 2);
  });

  test('ingest.formats: FLAC, Ogg Vorbis and an MP3 from another encoder go in', {
    skip: !hasFfmpeg && process.env.CI !== 'true' && 'ffmpeg is not installed',
  }, async () => {
    const { data } = await (await server.get('/api/v1/sounds?q=burst', { key })).json();
    assert.deepEqual(data.map((s: { name: string }) => s.name).sort(), ['Burst', 'Burst Lame']);
    for (const sound of data)
      assert.ok(Math.abs(sound.timing.onset_ms - 300) < 3, `${sound.name} onset ${sound.timing.onset_ms}`);
    const {
      data: [flac],
    } = await (await server.get('/api/v1/sounds?q=tone&sort=name&order=desc', { key })).json();
    assert.equal(flac.name, 'Tone');
    assert.ok(Math.abs(flac.duration - 1) < 0.001);
  });

  test('ingest.again: the same content a second time updates metadata instead of adding', async () => {
    await writeFile(
      path.join(folder, 'glass_break-small.json'),
      JSON.stringify({ name: 'Glass Break Tiny', tags: ['glass'], sample: false }),
    );
    const result = await runCli(
      ['ingest', path.join(folder, 'glass_break-small.wav'), path.join(folder, 'nested'), '--json'],
      env,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.json, { added: 0, updated: hasFfmpeg ? 5 : 2, failed: [], skipped: [] });
    // Another process's change reaches the server's search index within a second.
    const { data, pagination } = await eventually(
      async () => (await server.get('/api/v1/sounds?q=glass', { key })).json(),
      (answer) => answer.data[0]?.name === 'Glass Break Tiny',
      1000,
      'the new metadata is searchable',
    );
    assert.equal(pagination.total, 1);
    assert.equal(data[0].name, 'Glass Break Tiny');
    assert.deepEqual(data[0].tags, ['glass']);
    assert.deepEqual((await (await server.get('/api/v1/sounds/sample')).json()).data, []);
  });

  test('ingest.files: every row has its file, and no scratch file is left behind', async () => {
    const rows = await server.services.database.db.selectFrom('sounds').select(['file_key', 'file_size']).execute();
    for (const row of rows) assert.equal(await server.services.files.size(row.file_key), row.file_size);
    const scratch = path.join(server.dataDir, 'audio', '.tmp');
    assert.deepEqual(existsSync(scratch) ? await readdir(scratch) : [], []);
  });

  test('ingest.errors: a missing path is reported in failed; no path at all is a usage error', async () => {
    const result = await runCli(['ingest', path.join(folder, 'nope.wav'), '--json'], env);
    assert.equal(result.status, 0);
    assert.deepEqual(result.json.failed, [{ file: path.join(folder, 'nope.wav'), reason: 'no such file or folder' }]);
    const usage = await runCli(['ingest', '--json'], env);
    assert.notEqual(usage.status, 0);
    assert.match(usage.stderr, /at least one file or folder/);
  });
});
