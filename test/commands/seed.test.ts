import assert from 'node:assert/strict';
import { configFor } from '../helpers/backend.ts';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findDemoRecordings } from '../../src/ingest/demo-recordings.ts';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServe } from '../helpers/process.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

describe('seed', () => {
  let server: TestServer;
  let env: Record<string, string>;
  before(async () => {
    server = await startServer();
    env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
  });
  after(() => server.close());

  test('seed.happy: synthesizes real, measured, playable MP3 sounds; the same seed again adds nothing', async () => {
    const result = await runCli(['seed', '--count', '8', '--seed', 'test-a', '--json'], env);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.json, { added: 8 });
    const again = await runCli(['seed', '--count', '8', '--seed', 'test-a', '--json'], env);
    assert.deepEqual(again.json, { added: 0 });
    const other = await runCli(['seed', '--count', '3', '--seed', 'test-b', '--json'], env);
    assert.deepEqual(other.json, { added: 3 });

    const { key } = await server.account('pro');
    const { data, pagination } = await (await server.get('/api/v1/sounds?limit=100', { key })).json();
    assert.equal(pagination.total, 11);
    // Unique names that say how each sound sounds, with no serial number (demo-names.test.ts).
    assert.equal(new Set(data.map((sound: { name: string }) => sound.name)).size, 11);
    for (const sound of data) assert.doesNotMatch(sound.name, /\d$|#\d| \d+ - /, sound.name);
    for (const sound of data) {
      assert.ok(sound.name.length > 0 && sound.description.length > 0 && sound.tags.length > 0, sound.name);
      assert.ok(['SFX', 'MUSIC', 'LOFI', 'AMBIENT'].includes(sound.category), sound.category);
      assert.equal(sound.license, 'CC0');
      assert.ok(sound.duration > 0);
      assert.equal(typeof sound.loudness.integrated_lufs, 'number');
      assert.ok(sound.loudness.true_peak_db <= 0.5, `${sound.name} true peak ${sound.loudness.true_peak_db}`);
      assert.equal(typeof sound.timing.onset_ms, 'number');
      assert.ok(sound.timing.onset_ms <= sound.timing.peak_ms && sound.timing.peak_ms <= sound.timing.tail_ms);
    }
    const audio = await fetch(data[0].stream_url);
    assert.equal(audio.headers.get('content-type'), 'audio/mpeg');
    assert.ok((await audio.arrayBuffer()).byteLength > 1000);
  });

  test('seed.deterministic: the same seed gives the same sounds (same ids and names) on another install', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-seed-'));
    try {
      await runCli(['seed', '--count', '3', '--seed', 'test-b', '--json'], {
        SOUND_CATALOG_DATA: dataDir,
        SOUND_CATALOG_DEMO: '0',
      });
      const { db } = server.services.database;
      const mine = await db.selectFrom('sounds').select(['id', 'name']).orderBy('id').execute();
      const other = await import('../../src/wiring.ts').then(async ({ createServices }) => {
        const services = await createServices(await configFor(dataDir, { SOUND_CATALOG_DEMO: '1' }));
        const rows = await services.database.db.selectFrom('sounds').select(['id', 'name']).orderBy('id').execute();
        await services.close();
        return rows;
      });
      assert.equal(other.length, 3);
      for (const row of other)
        assert.deepEqual(
          mine.find((m) => m.id === row.id),
          row,
          'same sound, same name',
        );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('seed.usage: a bad --count is refused', async () => {
    const result = await runCli(['seed', '--count', 'many'], env);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--count must be a whole number/);
  });
});

describe('first start', () => {
  test(
    'first-start: an empty data folder gets a demo catalog ' + 'and a Pro key printed once; a restart keeps both',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-first-'));
      const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO_COUNT: '6', SOUND_CATALOG_DEMO_RECORDINGS: '0' };
      try {
        const first = await startServe(env);
        const key = /API key, shown this once:\s+(sc_\w+)/.exec(first.stderr())?.[1];
        assert.ok(key, first.stderr());
        assert.ok(
          first.stderr().includes(`curl -H "x-api-key: ${key}" "${first.url}/api/v1/sounds?q=laser&max_duration=1"`),
        );
        const response = await fetch(`${first.url}/api/v1/sounds`, { headers: { 'x-api-key': key } });
        assert.equal(response.status, 200);
        assert.equal((await response.json()).pagination.total, 6);
        const samples = await (await fetch(`${first.url}/api/v1/sounds/sample`)).json();
        assert.ok(samples.data.length > 0, 'some demo sounds are public samples');
        assert.equal(await first.stop(), 0);

        const second = await startServe(env);
        assert.doesNotMatch(second.stderr(), /shown this once/);
        const again = await fetch(`${second.url}/api/v1/sounds`, { headers: { 'x-api-key': key } });
        assert.equal((await again.json()).pagination.total, 6);
        assert.equal(await second.stop(), 0);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  test(
    'first-start.background: the rest of the demo catalog is ' +
      'made after listening; a stop part way resumes next time',
    async () => {
      const server = await startServer({ env: { SOUND_CATALOG_DEMO_COUNT: '5', SOUND_CATALOG_DEMO_RECORDINGS: '0' } });
      try {
        const { prepareFirstStart } = await import('../../src/commands/first-start.ts');
        const marker = path.join(server.dataDir, 'demo-catalog-in-progress');
        const stopped = new AbortController();
        stopped.abort();
        const demo = await prepareFirstStart(server.services, server.app.log, new AbortController().signal, 2);
        assert.ok(demo);
        assert.match(demo.banner(server.url), /other 3 demo sounds are being made in the background/);
        assert.equal(await server.services.catalog.size(), 2);
        await demo.finish(stopped.signal);
        assert.ok(existsSync(marker), 'a stopped first start is not finished');

        const resumed = await prepareFirstStart(server.services, server.app.log, new AbortController().signal, 2);
        assert.ok(resumed, 'the next start carries on');
        await resumed.finish(new AbortController().signal);
        assert.equal(await server.services.catalog.size(), 5);
        assert.ok(!existsSync(marker));
        assert.equal(await prepareFirstStart(server.services, server.app.log, new AbortController().signal, 2), null);
        const account = await server.services.accounts.findByEmail('demo@sound-catalog.local');
        assert.equal(
          (await server.services.accounts.listKeys(account!.id)).length,
          1,
          'one demo key, the last one printed',
        );
      } finally {
        await server.close();
      }
    },
  );

  test(
    'first-start.recordings: real CC0 recordings join the synthesized ' +
      'sounds, through ingest, each naming its Freesound origin',
    async () => {
      const server = await startServer({ env: { SOUND_CATALOG_DEMO_COUNT: '2', SOUND_CATALOG_DEMO_RECORDINGS: '3' } });
      try {
        const { prepareFirstStart } = await import('../../src/commands/first-start.ts');
        const demo = await prepareFirstStart(server.services, server.app.log, new AbortController().signal, 2);
        await demo!.finish(new AbortController().signal);
        assert.equal(await server.services.catalog.size(), 5);
        const { key } = await server.account('pro');
        const expected = (await findDemoRecordings()).slice(0, 3);
        const found = await eventually(
          async () =>
            (await (await server.get('/api/v1/sounds?tags=sonic-pi&sort=name&order=asc', { key })).json()) as {
              data: Array<Record<string, unknown>>;
            },
          (body) => body.data.length === 3,
          1000,
          'the recordings are in the index',
        );
        assert.deepEqual(
          found.data.map((sound) => sound.name),
          expected.map((recording) => recording.name).sort(),
        );
        for (const sound of found.data) {
          const recording = expected.find((candidate) => candidate.name === sound.name)!;
          assert.ok(String(sound.description).endsWith(recording.origin), String(sound.description));
          assert.equal(sound.license, 'CC0');
          assert.equal(sound.category, recording.category);
          assert.ok((sound.tags as string[]).includes('recorded'));
          assert.ok(Number(sound.duration) > 0, 'measured from its audio');
          const similar = (await (
            await server.get(`/api/v1/sounds/${String(sound.id)}/similar?limit=4`, { key })
          ).json()) as { data: unknown[] };
          assert.equal(similar.data.length, 4, 'described, so it has neighbours');
        }
      } finally {
        await server.close();
      }
    },
  );

  test(
    'first-start.recordings-list: the installed package offers ' +
      'its samples, each with a Freesound page, sorted into families',
    async () => {
      const recordings = await findDemoRecordings();
      assert.equal(recordings.length, 130, 'every sample of the package has its Freesound page in the README');
      assert.ok(
        recordings.every((recording) =>
          /^https:\/\/(www\.)?freesound\.org\/people\/[^/]+\/sounds\/\d+\/?$/.test(recording.origin),
        ),
        'every origin is a Freesound page',
      );
      assert.ok(recordings.every((recording) => existsSync(recording.file)));
      const byFile = new Map(recordings.map((recording) => [path.basename(recording.file, '.flac'), recording]));
      assert.deepEqual(
        byFile.get('drum_heavy_kick') && {
          category: byFile.get('drum_heavy_kick')!.category,
          kick: byFile.get('drum_heavy_kick')!.tags.includes('kick'),
        },
        { category: 'SFX', kick: true },
      );
      assert.deepEqual(
        { name: byFile.get('ambi_choir')?.name, category: byFile.get('ambi_choir')?.category },
        { name: 'Ambient Choir', category: 'AMBIENT' },
      );
      assert.deepEqual(await findDemoRecordings(null), [], 'no package, no recordings');
    },
  );

  test('first-start.off: SOUND_CATALOG_DEMO=0 makes no catalog and no key', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-first-'));
    try {
      const server = await startServe({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' });
      assert.doesNotMatch(server.stderr(), /sc_\w{20,}/);
      assert.equal((await (await fetch(`${server.url}/api/v1/sounds/sample`)).json()).pagination.total, 0);
      await server.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
