import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sine } from '../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../audio/helpers/wav.ts';
import { runCli } from '../helpers/cli.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const RATE = 44_100;

interface Planned {
  file: string;
  action: 'add' | 'update' | 'refuse';
  id?: string;
  reason?: string;
  metadata?: { name: string; tags: string[]; category: string | null };
  audio?: { format: string; duration: number; sampleRate: number; channels: number };
}

/** Every file under the data folder but the database's own, with its size and time: what a dry run must not touch. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && !entry.name.includes('.sqlite'));
  return Promise.all(
    files.map(async (entry) => {
      const where = path.join(entry.parentPath, entry.name);
      const info = await stat(where);
      return `${where} ${info.size} ${info.mtimeMs}`;
    }),
  );
}

describe('ingest --dry-run: what would be added, updated or refused, with nothing written', () => {
  let folder: string;
  let server: TestServer;
  let env: Record<string, string>;
  const file = (name: string) => path.join(folder, name);

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-dry-run-'));
    await writeFile(
      file('door-knock.wav'),
      encodeWavFloat32({ sampleRate: RATE, channels: [sine(RATE, 300, -12, RATE / 2)] }),
    );
    await writeFile(
      file('door-knock.json'),
      JSON.stringify({ name: 'Door Knock', tags: 'door, knock', category: 'sfx' }),
    );
    await writeFile(
      file('tone.wav'),
      encodeWavFloat32({
        sampleRate: 48_000,
        channels: [sine(48_000, 440, -20, 48_000), sine(48_000, 440, -20, 48_000)],
      }),
    );
    await copyFile(file('tone.wav'), file('tone_copy.wav'));
    await writeFile(file('corrupt.wav'), new Uint8Array(3000).fill(9));
    await writeFile(
      file('bad-json.wav'),
      encodeWavFloat32({ sampleRate: RATE, channels: [sine(RATE, 500, -20, RATE / 4)] }),
    );
    await writeFile(file('bad-json.json'), '{ "name": ');
    server = await startServer();
    env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
  });
  after(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  const soundCount = async () =>
    Number(
      (
        await server.services.database.db
          .selectFrom('sounds')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const dryRun = async (...extra: string[]) => {
    const run = await runCli(['ingest', '--dry-run', folder, ...extra], env);
    assert.equal(run.status, 0, run.stderr);
    return run;
  };

  test(
    "dry-run.first: each file's action, id, metadata and audio; nothing " +
      'written; ingest then does exactly that, the later of two equal files last',
    async () => {
      const before = await filesUnder(server.dataDir);
      const missing = file('no-such-file.wav');
      const run = await dryRun(missing, '--json');
      const plan = run.json as {
        dryRun: boolean;
        added: number;
        updated: number;
        failed: Array<{ file: string; reason: string }>;
        files: Planned[];
      };
      assert.equal(plan.dryRun, true);
      assert.deepEqual(
        { added: plan.added, updated: plan.updated, failed: plan.failed.length },
        { added: 2, updated: 1, failed: 3 },
      );
      const byName = new Map(plan.files.map((planned) => [path.basename(planned.file), planned]));
      assert.equal(byName.size, 6);

      const knock = byName.get('door-knock.wav')!;
      assert.equal(knock.action, 'add');
      assert.deepEqual(
        knock.metadata && { name: knock.metadata.name, tags: knock.metadata.tags, category: knock.metadata.category },
        { name: 'Door Knock', tags: ['door', 'knock'], category: 'SFX' },
      );
      assert.deepEqual(
        { ...knock.audio, duration: Math.round(knock.audio!.duration * 100) / 100 },
        { format: 'wav', duration: 0.5, sampleRate: RATE, channels: 1 },
      );
      const tone = byName.get('tone.wav')!;
      assert.equal(tone.action, 'add');
      assert.equal(tone.metadata!.name, 'Tone');
      assert.deepEqual(
        { format: tone.audio!.format, sampleRate: tone.audio!.sampleRate, channels: tone.audio!.channels },
        { format: 'wav', sampleRate: 48_000, channels: 2 },
      );
      const copy = byName.get('tone_copy.wav')!;
      assert.deepEqual({ action: copy.action, id: copy.id }, { action: 'update', id: tone.id });
      assert.match(copy.reason!, /same content as .*tone\.wav/);
      assert.equal(byName.get('corrupt.wav')!.action, 'refuse');
      assert.match(byName.get('bad-json.wav')!.reason!, /bad-json\.json is not valid JSON/);
      assert.deepEqual(byName.get('no-such-file.wav'), {
        file: missing,
        action: 'refuse',
        reason: 'no such file or folder',
      });

      assert.equal(await soundCount(), 0, 'no row was written');
      assert.deepEqual(await filesUnder(server.dataDir), before, 'no file in the data folder was written or changed');

      // The real ingest does what the dry run said, with the ids it gave.
      const real = await runCli(['ingest', folder, '--json'], env);
      assert.equal(real.status, 0, real.stderr);
      assert.deepEqual(
        { added: real.json.added, updated: real.json.updated, failed: real.json.failed.length },
        { added: 2, updated: 1, failed: 2 },
      );
      // The copy comes after the original, so its metadata is the one kept, as the plan said.
      const rows = await server.services.database.db
        .selectFrom('sounds')
        .select(['id', 'name'])
        .orderBy('name')
        .execute();
      assert.deepEqual(rows, [
        { id: knock.id, name: 'Door Knock' },
        { id: tone.id, name: 'Tone Copy' },
      ]);
    },
  );

  test(
    'dry-run.known: content already in the catalog is an ' + 'update of its sound; the text form says it wrote nothing',
    async () => {
      const run = await dryRun();
      const lines = run.stdout.trim().split('\n');
      const ids = new Map(
        (await server.services.database.db.selectFrom('sounds').select(['id', 'name']).execute()).map((row) => [
          row.name,
          row.id,
        ]),
      );
      assert.ok(
        lines.some((line) =>
          line.startsWith(
            `update  ${file('door-knock.wav')}: sound ` +
              `${ids.get('Door Knock')} gets "Door Knock", SFX, tags: door, knock`,
          ),
        ),
        run.stdout,
      );
      const toneId = ids.get('Tone Copy');
      assert.ok(
        lines.some((line) => line.startsWith(`update  ${file('tone.wav')}: sound ${toneId} gets "Tone"`)),
        run.stdout,
      );
      assert.ok(
        lines.some((line) => line.startsWith(`update  ${file('tone_copy.wav')}: sound ${toneId} gets "Tone Copy"`)),
        run.stdout,
      );
      assert.ok(
        lines.some((line) => line.startsWith(`refuse  ${file('corrupt.wav')}: `)),
        run.stdout,
      );
      assert.equal(lines.at(-1), 'would add 0, update 3, refuse 2 (dry run: nothing was written)');
    },
  );
});

describe('ingest: files with the same content', () => {
  test(
    'ingest.same-content: the last of several equal files in ' +
      'order gives the metadata, however the files interleave',
    async () => {
      const folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-same-'));
      const server = await startServer();
      try {
        const wav = encodeWavFloat32({ sampleRate: RATE, channels: [sine(RATE, 660, -15, RATE / 3)] });
        for (let n = 1; n <= 8; n++) {
          await writeFile(path.join(folder, `echo-${n}.wav`), wav);
          await writeFile(
            path.join(folder, `echo-${n}.json`),
            JSON.stringify({ name: `Echo ${n}`, tags: [`take${n}`] }),
          );
        }
        const run = await runCli(['ingest', folder, '--json'], {
          SOUND_CATALOG_DATA: server.dataDir,
          SOUND_CATALOG_DEMO: '0',
        });
        assert.equal(run.status, 0, run.stderr);
        assert.deepEqual(
          { added: run.json.added, updated: run.json.updated, failed: run.json.failed.length },
          { added: 1, updated: 7, failed: 0 },
        );
        const rows = await server.services.database.db.selectFrom('sounds').select(['name', 'tags']).execute();
        assert.deepEqual(
          rows.map((row) => row.name),
          ['Echo 8'],
        );
      } finally {
        await server.close();
        await rm(folder, { recursive: true, force: true });
      }
    },
  );
});
