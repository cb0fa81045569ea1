import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findDemoRecordings, ingestDemoRecordings } from '../../src/ingest/demo-recordings.ts';
import { needsFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

interface ApiSound {
  id: string;
  name: string;
  category: string;
  duration: number;
  download_url: string;
  loop: { start_sample: number; end_sample: number } | null;
}

/** The frames and rate of an MP3 as ffmpeg decodes it (its decoder trims the LAME delay and padding). */
async function decodedFrames(url: string): Promise<{ frames: number; sampleRate: number }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-demo-loop-'));
  try {
    const file = path.join(folder, 'sound.mp3');
    await writeFile(file, new Uint8Array(await (await fetch(url)).arrayBuffer()));
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=sample_rate', '-of', 'json', file], {
        encoding: 'utf8',
      }),
    );
    const mono = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-ac', '1', '-f', 'f32le', '-'], {
      maxBuffer: 1 << 30,
    });
    return { frames: mono.length / 4, sampleRate: Number(probe.streams[0].sample_rate) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('the demo catalog marks its loops', needsFfmpeg, () => {
  let server: TestServer;
  let key: string;
  const search = async (query: string) =>
    ((await (await server.get(`/api/v1/sounds?limit=100${query}`, { key })).json()) as { data: ApiSound[] }).data;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
  });
  after(() => server.close());

  test('demo-loops.synth: seeded music and lo-fi loop from their first frame to their last, the rest not', async () => {
    // The categories take turns: SFX, AMBIENT, MUSIC, LOFI.
    const seeded = await runCli(['seed', '--count', '4', '--seed', 'loops', '--json'], {
      SOUND_CATALOG_DATA: server.dataDir,
      SOUND_CATALOG_DEMO: '0',
    });
    assert.equal(seeded.status, 0, seeded.stderr);
    const loops = await eventually(
      () => search('&loop=true'),
      (sounds) => sounds.length === 2,
      2000,
      'the seeded loops reach the index',
    );
    assert.deepEqual(loops.map((sound) => sound.category).sort(), ['LOFI', 'MUSIC']);
    assert.deepEqual((await search('&loop=false')).map((sound) => sound.category).sort(), ['AMBIENT', 'SFX']);
    for (const sound of loops) {
      const { frames, sampleRate } = await decodedFrames(sound.download_url);
      assert.deepEqual(
        sound.loop,
        { start_sample: 0, end_sample: frames },
        `${sound.name}: the whole MP3 as ffmpeg decodes it`,
      );
      assert.ok(Math.abs(frames / sampleRate - sound.duration) < 1e-6, `${sound.name}: its duration is those frames`);
    }
  });

  test("demo-loops.recordings: Sonic Pi's loop samples go in as loops, the others not", async (context) => {
    const recordings = await findDemoRecordings();
    const picked = ['loop_amen', 'bd_808'].flatMap((sample) =>
      recordings.filter((recording) => path.basename(recording.file, '.flac') === sample),
    );
    if (picked.length < 2) {
      context.skip('the optional package ultrasonic is not installed');
      return;
    }
    assert.deepEqual(
      picked.map((recording) => recording.loop),
      [true, false],
    );
    const result = await ingestDemoRecordings(server.services, picked);
    assert.deepEqual(result.failed, []);
    const amen = picked[0]!;
    const found = await eventually(
      () => search('&tags=sonic-pi&loop=true'),
      (sounds) => sounds.length === 1,
      2000,
      'the recorded loop reaches the index',
    );
    assert.equal(found[0]!.name, amen.name);
    const { frames } = await decodedFrames(found[0]!.download_url);
    assert.deepEqual(found[0]!.loop, { start_sample: 0, end_sample: frames });
    assert.equal((await search('&tags=sonic-pi&loop=false')).length, 1);
  });
});
