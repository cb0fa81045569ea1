import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DESCRIPTOR_LENGTH } from '../../src/audio/analyze/descriptors.ts';
import { concat, gaussianNoise, seededRandom, silence, sine } from '../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../audio/helpers/wav.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

const RATE = 44_100;

/** Two tones and two noises: each one's nearest sound is the other of its kind. */
function sounds(): Record<string, Float32Array> {
  const noise = (seconds: number, seed: number, level: number) => {
    const next = gaussianNoise(seededRandom(seed));
    return Float32Array.from({ length: Math.round(seconds * RATE) }, () => next() * level);
  };
  return {
    'tone-low.wav': concat(silence(RATE / 10), sine(RATE, 220, -12, RATE)),
    'tone-lower.wav': concat(silence(RATE / 10), sine(RATE, 196, -14, RATE)),
    'hiss-soft.wav': noise(2, 1, 0.05),
    'hiss-softer.wav': noise(2.5, 2, 0.04),
  };
}

describe('analyze --missing: descriptors for sounds stored without them', () => {
  let folder: string;
  let server: TestServer;
  let env: Record<string, string>;
  let key: string;
  const measured = new Map<string, string>();

  const descriptorRows = () =>
    server.services.database.db.selectFrom('sounds').select(['id', 'name', 'descriptors']).orderBy('seq').execute();

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-analyze-'));
    for (const [name, channel] of Object.entries(sounds()))
      await writeFile(path.join(folder, name), encodeWavFloat32({ sampleRate: RATE, channels: [channel] }));
    server = await startServer();
    env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
    ({ key } = await server.account('pro'));
    const ingested = await runCli(['ingest', folder, '--json'], env);
    assert.equal(ingested.status, 0, ingested.stderr);
    assert.equal(ingested.json.added, 4);
    for (const row of await descriptorRows()) measured.set(row.id, row.descriptors!);
  });
  after(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  test('analyze.ingest: ingest measures the descriptors of every sound it adds', () => {
    assert.equal(measured.size, 4);
    for (const descriptors of measured.values()) {
      const vector = JSON.parse(descriptors) as number[];
      assert.equal(vector.length, DESCRIPTOR_LENGTH);
      assert.ok(vector.every(Number.isFinite));
    }
  });

  test(
    'analyze.missing: measures exactly what ingest would have, ' +
      'reports a sound it cannot read, and similar sounds follow',
    async () => {
      const { db } = server.services.database;
      await db.updateTable('sounds').set({ descriptors: null }).execute();
      // A row whose file is not an MP3 at all: it is listed with its reason, never skipped silently.
      const { id: broken } = await addSound(server.services, { name: 'Broken File' });
      const ids = [...measured.keys()];
      const similarTo = async (id: string, limit: number) =>
        (
          (await (await server.get(`/api/v1/sounds/${id}/similar?limit=${limit}`, { key })).json()) as {
            data: Array<{ id: string }>;
          }
        ).data;
      await eventually(
        () => similarTo(ids[0]!, 10),
        (data) => data.length === 0,
        1000,
        'descriptors cleared',
      );

      const run = await runCli(['analyze', '--missing', '--json'], env);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.json.described, 4);
      assert.deepEqual(
        run.json.failed.map((failure: { id: string }) => failure.id),
        [broken],
      );
      assert.match(run.json.failed[0].reason, /\w/);
      for (const row of await descriptorRows()) {
        if (row.id !== broken)
          assert.equal(row.descriptors, measured.get(row.id), `${row.name}: the same numbers as at ingest`);
      }

      const names = new Map((await descriptorRows()).map((row) => [row.id, row.name]));
      // The feed brings the four new descriptors within its polling interval, maybe not all in one read.
      const neighbours = async () => Promise.all(ids.map((id) => similarTo(id, 10)));
      const answers = await eventually(
        neighbours,
        (lists) => lists.every((list) => list.length === 3),
        1000,
        'every sound has the other three as neighbours',
      );
      const kindOf = (id: string | undefined) => names.get(id ?? '')?.split(' ')[0];
      ids.forEach((id, i) =>
        assert.equal(
          kindOf(answers[i]![0]!.id),
          kindOf(id),
          `a ${kindOf(id)} sound is nearest to another ${kindOf(id)} sound`,
        ),
      );

      const again = await runCli(['analyze', '--missing', '--json'], env);
      assert.equal(again.status, 0, again.stderr);
      assert.deepEqual(
        { described: again.json.described, failed: again.json.failed.length },
        { described: 0, failed: 1 },
      );
    },
  );

  test(
    'analyze.upgrade: vectors of the first kind are cleared ' +
      'by the migration, counted at start, and measured again',
    async () => {
      const { db } = server.services.database;
      const ids = [...measured.keys()];
      // Descriptors as the first version stored them: 38 numbers.
      await db
        .updateTable('sounds')
        .set({ descriptors: JSON.stringify(Array.from({ length: 38 }, (_, i) => i / 10)) })
        .where('id', 'in', ids)
        .execute();
      await migrations['005_descriptors_v2']!.up(db, server.services.database.dialect.name);
      assert.ok((await descriptorRows()).every((row) => row.descriptors === null));
      await eventually(
        () => server.services.catalog.start(),
        (built) => built.described === 0,
        1000,
        'the index follows the cleared rows',
      );

      const run = await runCli(['analyze', '--missing', '--json'], env);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.json.described, 4);
      for (const row of await descriptorRows())
        if (measured.has(row.id)) assert.equal(row.descriptors, measured.get(row.id));
      const built = await eventually(
        () => server.services.catalog.start(),
        (start) => start.described === 4,
        1000,
        'the index has the new descriptors',
      );
      assert.equal(built.sounds - built.described, 1, 'the broken file alone has none');
    },
  );

  test('analyze.usage: without --missing it says what it takes; progress stays off standard output', async () => {
    const bare = await runCli(['analyze'], env);
    assert.equal(bare.status, 2);
    assert.match(bare.stderr, /analyze takes --missing/);
    const plain = await runCli(['analyze', '--missing'], env);
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(plain.stdout, /^described 0, failed 1\n {2}failed: \w+: /);
    assert.match(plain.stderr, /1\/1 sounds/);
  });
});
