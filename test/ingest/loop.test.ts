import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { needsFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { sine } from '../audio/helpers/signals.ts';
import { writeWav } from '../audio/helpers/wav.ts';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { callTool, connectMcp, textOf } from '../mcp/mcp-client.ts';
import { resolveLoop } from '../../src/ingest/loop.ts';
import { probeTags } from '../media/tags/probe-tags.ts';
import { riffChunks } from '../media/tags/riff-chunks.ts';
import { hasLibsndfile, libsndfileLoops, smplChunk } from './helpers/smpl.ts';

const RATE = 44_100;
/** A different tone per file: the same content twice would be one sound. */
const tone = (hz: number, frames: number, rate = RATE) => [sine(rate, hz, -14, frames)];

interface Reported {
  file: string;
  action: string;
  id?: string;
  metadata?: { name: string; loop?: { startSample: number; endSample: number } | null };
  sources?: Record<string, string>;
  notes?: string[];
}

interface ApiSound {
  id: string;
  name: string;
  loop: { start_sample: number; end_sample: number } | null;
}

describe('loops: read at ingest, stored, listed, searched', needsFfmpeg, () => {
  let folder: string;
  let server: TestServer;
  let env: Record<string, string>;
  let key: string;
  let client: Client;
  let ingested: { added: number; updated: number; failed: unknown[]; files: Reported[] };
  let planned: { files: Array<Reported & { metadata?: Reported['metadata'] }> };
  const ids: Record<string, string> = {};
  const put = (name: string, bytes: Uint8Array | string) => writeFile(path.join(folder, name), bytes);
  const search = async (query: string): Promise<ApiSound[]> => {
    const response = await server.get(`/api/v1/sounds?limit=100&sort=name&order=asc${query}`, { key });
    assert.equal(response.status, 200);
    return ((await response.json()) as { data: ApiSound[] }).data;
  };

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-loops-'));
    // smpl: frames 1,000 to 40,999 (its end is the last frame, included) of 44,100.
    await put(
      'smpl.wav',
      writeWav({ sampleRate: RATE, channels: tone(300, RATE), chunksBeforeData: [['smpl', smplChunk(1000, 40_999)]] }),
    );
    // 96 kHz is no MP3 rate: stored at 48 kHz, so the points are halved.
    await put(
      'hires.wav',
      writeWav({
        sampleRate: 96_000,
        channels: tone(350, 48_000, 96_000),
        chunksBeforeData: [['smpl', smplChunk(9600, 47_999, 96_000)]],
      }),
    );
    // A loop past the end of the sound: reported and ignored, the file still goes in.
    await put(
      'bad.wav',
      writeWav({
        sampleRate: RATE,
        channels: tone(400, RATE / 2),
        chunksBeforeData: [['smpl', smplChunk(100, 99_999)]],
      }),
    );
    await put('whole.wav', writeWav({ sampleRate: RATE, channels: tone(450, RATE / 2) }));
    await put('whole.json', JSON.stringify({ name: 'Whole', loop: true }));
    await put('plain.wav', writeWav({ sampleRate: RATE, channels: tone(500, RATE / 2) }));
    await put('source.wav', writeWav({ sampleRate: RATE, channels: tone(550, RATE) }));
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      path.join(folder, 'source.wav'),
      '-c:a',
      'libvorbis',
      '-metadata',
      'LOOPSTART=2205',
      '-metadata',
      'LOOPLENGTH=22050',
      path.join(folder, 'tagged.ogg'),
    ]);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      path.join(folder, 'source.wav'),
      '-af',
      'volume=0.5',
      '-metadata',
      'LOOPSTART=soon',
      path.join(folder, 'unreadable.flac'),
    ]);
    await rm(path.join(folder, 'source.wav'));

    server = await startServer();
    env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
    ({ key } = await server.account('pro'));
    const plan = await runCli(['ingest', '--dry-run', folder, '--json', '--verbose'], env);
    assert.equal(plan.status, 0, plan.stderr);
    planned = plan.json;
    const run = await runCli(['ingest', folder, '--json', '--verbose'], env);
    assert.equal(run.status, 0, run.stderr);
    ingested = run.json;
    for (const file of ingested.files) ids[path.basename(file.file)] = file.id!;
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client?.close();
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  test('loop.fixtures: libsndfile and ffprobe read the loops the fixtures were written with', {
    skip: hasLibsndfile ? false : 'python3 with libsndfile is not installed',
  }, () => {
    assert.deepEqual(libsndfileLoops(path.join(folder, 'smpl.wav')), {
      frames: RATE,
      sampleRate: RATE,
      loops: [{ start: 1000, end: 41_000 }],
    });
    assert.deepEqual(libsndfileLoops(path.join(folder, 'hires.wav')).loops, [{ start: 9600, end: 48_000 }]);
    const tags = JSON.parse(
      execFileSync(
        'ffprobe',
        ['-v', 'error', '-show_entries', 'stream_tags:format_tags', '-of', 'json', path.join(folder, 'tagged.ogg')],
        { encoding: 'utf8' },
      ),
    );
    const streamTags = tags.streams[0].tags;
    assert.equal(streamTags.LOOPSTART, '2205');
    assert.equal(streamTags.LOOPLENGTH, '22050');
  });

  test('loop.ingest: every file goes in; each loop is read, checked and reported, a bad one as a note', () => {
    assert.deepEqual(
      { added: ingested.added, updated: ingested.updated, failed: ingested.failed },
      { added: 7, updated: 0, failed: [] },
    );
    const byName = new Map(ingested.files.map((file) => [path.basename(file.file), file]));
    const loopOf = (name: string) => byName.get(name)?.metadata?.loop ?? null;
    assert.deepEqual(loopOf('smpl.wav'), { startSample: 1000, endSample: 41_000 });
    assert.deepEqual(loopOf('hires.wav'), { startSample: 4800, endSample: 24_000 });
    assert.deepEqual(loopOf('tagged.ogg'), { startSample: 2205, endSample: 24_255 });
    assert.deepEqual(loopOf('whole.wav'), { startSample: 0, endSample: RATE / 2 });
    assert.equal(loopOf('bad.wav'), null);
    assert.equal(loopOf('plain.wav'), null);
    assert.equal(loopOf('unreadable.flac'), null);
    assert.deepEqual(Object.fromEntries([...byName].map(([name, file]) => [name, file.sources?.loop ?? null])), {
      'bad.wav': 'smpl',
      'hires.wav': 'smpl',
      'plain.wav': null,
      'smpl.wav': 'smpl',
      'tagged.ogg': 'vorbis',
      'unreadable.flac': null,
      'whole.wav': 'sidecar',
    });
    assert.deepEqual(byName.get('bad.wav')?.notes, [
      'loop ignored (smpl): frames 100 to 100000 do not fit a sound of 22050 frames (0 <= start < end <= length, ' +
        'end exclusive)',
    ]);
    assert.deepEqual(byName.get('unreadable.flac')?.notes, [
      'loop ignored: LOOPSTART "soon" is no whole number of samples',
    ]);
    // The dry run checks loops the same way.
    for (const file of planned.files) {
      const name = path.basename(file.file);
      assert.deepEqual(file.metadata?.loop ?? null, loopOf(name), `dry run loop of ${name}`);
      assert.deepEqual(file.notes, byName.get(name)?.notes, `dry run notes of ${name}`);
    }
  });

  test('loop.search: loop=true lists the loops only, loop=false the rest; details show the loop', async () => {
    const loops = await eventually(
      () => search('&loop=true'),
      (sounds) => sounds.length === 4,
      2000,
      'the loops reach the index',
    );
    assert.deepEqual(Object.fromEntries(loops.map((sound) => [sound.id, sound.loop])), {
      [ids['hires.wav']!]: { start_sample: 4800, end_sample: 24_000 },
      [ids['smpl.wav']!]: { start_sample: 1000, end_sample: 41_000 },
      [ids['tagged.ogg']!]: { start_sample: 2205, end_sample: 24_255 },
      [ids['whole.wav']!]: { start_sample: 0, end_sample: RATE / 2 },
    });
    const others = await search('&loop=false');
    assert.deepEqual(
      others.map((sound) => sound.id).sort(),
      [ids['bad.wav'], ids['plain.wav'], ids['unreadable.flac']].sort(),
    );
    assert.ok(others.every((sound) => sound.loop === null));
    assert.equal((await search('')).length, 7);

    const details = await server.get(`/api/v1/sounds/${ids['smpl.wav']}`, { key });
    assert.equal(details.status, 200);
    assert.deepEqual(((await details.json()) as { data: ApiSound }).data.loop, {
      start_sample: 1000,
      end_sample: 41_000,
    });
    const plain = await server.get(`/api/v1/sounds/${ids['plain.wav']}`, { key });
    assert.equal(((await plain.json()) as { data: ApiSound }).data.loop, null);
  });

  test('loop.errors: a loop value other than true or false is a 400 naming the parameter', async () => {
    for (const value of ['yes', '1', '', 'TRUE']) {
      const response = await server.get(`/api/v1/sounds?loop=${value}`, { key });
      assert.equal(response.status, 400, value);
      const body = (await response.json()) as { details: Array<{ param: string }> };
      assert.deepEqual(
        body.details.map((detail) => detail.param),
        ['loop'],
        value,
      );
    }
  });

  test('loop.mcp: search_sounds takes loop; detail full shows it, in structured content and text', async () => {
    const result = await callTool(client, 'search_sounds', { loop: true, detail: 'full', sort: 'name', order: 'asc' });
    assert.ok(!result.isError, textOf(result));
    const { data } = result.structuredContent as { data: ApiSound[] };
    assert.deepEqual(
      data.map((sound) => sound.id).sort(),
      [ids['hires.wav'], ids['smpl.wav'], ids['tagged.ogg'], ids['whole.wav']].sort(),
    );
    assert.deepEqual(data.find((sound) => sound.id === ids['whole.wav'])?.loop, {
      start_sample: 0,
      end_sample: RATE / 2,
    });
    const none = await callTool(client, 'search_sounds', { loop: false, detail: 'full' });
    assert.ok((none.structuredContent as { data: ApiSound[] }).data.every((sound) => sound.loop === null));
    const sound = await callTool(client, 'get_sound', { id: ids['smpl.wav'] });
    assert.match(textOf(sound), /loop: frames 1000 to 41000 of the MP3 \(end exclusive\)/);
  });

  /** The file a download URL of the API serves, with a rendition's parameters. */
  const delivered = async (id: string, query: string): Promise<Uint8Array> => {
    const answer = await server.get(`/api/v1/sounds/${id}/download${query}`, { key });
    assert.equal(answer.status, 200, query);
    const { download_url } = ((await answer.json()) as { data: { download_url: string } }).data;
    const file = await fetch(download_url);
    assert.equal(file.status, 200, download_url);
    return new Uint8Array(await file.arrayBuffer());
  };
  /** A WAV's smpl loops as a chunk parser of the test's own reads them: [start, end] with end included. */
  const smplLoops = (wav: Uint8Array): Array<[number, number]> => {
    const smpl = riffChunks(wav).find((chunk) => chunk.id === 'smpl')?.payload;
    if (smpl === undefined) return [];
    return Array.from({ length: smpl.readUInt32LE(28) }, (_, i) => [
      smpl.readUInt32LE(36 + 24 * i + 8),
      smpl.readUInt32LE(36 + 24 * i + 12),
    ]);
  };

  test('loop.delivered: a WAV carries smpl in its own frames, Ogg LOOPSTART; a stray smpl never comes through', async () => {
    const id = ids['smpl.wav']!;
    // Frames 1,000 to 41,000 (end exclusive) of the 44.1 kHz MP3, at 48 kHz: 1,088.4 and 44,625.9.
    const [[start, end]] = smplLoops(await delivered(id, '?format=wav&sample_rate=48000')) as [[number, number]];
    assert.ok(Math.abs(start - 1088) <= 1, `start ${start}`);
    assert.ok(Math.abs(end - 44_625) <= 1, `end ${end} (included)`);
    const [[same, last]] = smplLoops(await delivered(id, '?format=wav')) as [[number, number]];
    assert.deepEqual([same, last], [1000, 40_999]);
    const ogg = path.join(folder, 'delivered.ogg');
    await writeFile(ogg, await delivered(id, '?format=ogg'));
    const tags = probeTags(ogg);
    assert.deepEqual([tags.loopstart, tags.looplength], ['1000', '40000']);
    // The source keeps its smpl chunk, but its sidecar says the sound is no loop: no loop is delivered.
    await put('smpl.json', JSON.stringify({ name: 'Smpl', loop: false }));
    const run = await runCli(['ingest', path.join(folder, 'smpl.wav'), '--json'], env);
    assert.equal(run.status, 0, run.stderr);
    await eventually(
      async () => ((await (await server.get(`/api/v1/sounds/${id}`, { key })).json()) as { data: ApiSound }).data,
      (sound) => sound.loop === null,
      2000,
      'the sound is no loop',
    );
    assert.deepEqual(smplLoops(await delivered(id, '?format=wav')), []);
    await writeFile(ogg, await delivered(id, '?format=ogg'));
    assert.equal(probeTags(ogg).loopstart, undefined);
  });

  test("loop.reingest: a changed sidecar sets or clears a known sound's loop, and the index follows", async () => {
    await put('plain.json', JSON.stringify({ name: 'Plain', loop: true }));
    await put('whole.json', JSON.stringify({ name: 'Whole', loop: false }));
    const run = await runCli(
      ['ingest', path.join(folder, 'plain.wav'), path.join(folder, 'whole.wav'), '--json', '--verbose'],
      env,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual({ added: run.json.added, updated: run.json.updated }, { added: 0, updated: 2 });
    const loops = await eventually(
      () => search('&loop=true'),
      (sounds) =>
        sounds.some((sound) => sound.id === ids['plain.wav']) && !sounds.some((sound) => sound.id === ids['whole.wav']),
      2000,
      'the changed loops reach the index',
    );
    assert.deepEqual(loops.find((sound) => sound.id === ids['plain.wav'])?.loop, {
      start_sample: 0,
      end_sample: RATE / 2,
    });
    // --verbose names the loop each file is stored with.
    const verbose = await runCli(['ingest', path.join(folder, 'plain.wav'), '--verbose'], env);
    assert.match(verbose.stdout, /"Plain", no category, tags: none, loop: frames 0 to 22050/);
    const whole = await server.get(`/api/v1/sounds/${ids['whole.wav']}`, { key });
    assert.equal(((await whole.json()) as { data: ApiSound }).data.loop, null);
  });
});

describe('loops checked against the decoded source', () => {
  test('loop.resolve: 0 <= start < end <= length, else a note; points scaled to the MP3 rate', () => {
    const wav = (sampleRate: number, frames: number) => ({ format: 'wav' as const, sampleRate, frames });
    assert.deepEqual(resolveLoop({ start: 0, end: null, source: 'sidecar' }, wav(44_100, 1000)), {
      loop: { startSample: 0, endSample: 1000 },
    });
    assert.deepEqual(resolveLoop({ start: 999, end: 1000, source: 'smpl' }, wav(44_100, 1000)), {
      loop: { startSample: 999, endSample: 1000 },
    });
    for (const [start, end] of [
      [5, 5],
      [6, 5],
      [0, 1001],
      [1000, null],
    ] as const) {
      const resolved = resolveLoop({ start, end, source: 'smpl' }, wav(44_100, 1000));
      assert.ok('note' in resolved && resolved.note.startsWith('loop ignored (smpl): '), `${start} to ${end}`);
    }
    // 96 kHz and 88.2 kHz are no MP3 rates: stored at 48 and 44.1 kHz. 11,025 Hz is one: kept.
    assert.deepEqual(resolveLoop({ start: 3, end: 9601, source: 'smpl' }, wav(96_000, 9601)), {
      loop: { startSample: 2, endSample: 4801 },
    });
    assert.deepEqual(resolveLoop({ start: 100, end: 200, source: 'vorbis' }, wav(88_200, 400)), {
      loop: { startSample: 50, endSample: 100 },
    });
    assert.deepEqual(resolveLoop({ start: 1, end: 2, source: 'vorbis' }, wav(11_025, 400)), {
      loop: { startSample: 1, endSample: 2 },
    });
    // One frame at 96 kHz rounds to nothing at 48 kHz.
    assert.deepEqual(resolveLoop({ start: 1, end: 2, source: 'smpl' }, wav(96_000, 400)), {
      note: "loop ignored (smpl): shorter than a frame at the catalog's 48000 Hz",
    });
    // An MP3 is stored as it is, at its own rate.
    assert.deepEqual(
      resolveLoop({ start: 0, end: null, source: 'sidecar' }, { format: 'mp3', sampleRate: 22_050, frames: 50 }),
      {
        loop: { startSample: 0, endSample: 50 },
      },
    );
  });
});
