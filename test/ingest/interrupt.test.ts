import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { noise } from '../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../audio/helpers/wav.ts';
import { backendOf, onPostgres, otherConnection } from '../helpers/backend.ts';
import { runCli } from '../helpers/cli.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/sound-catalog.js');
const FILES = 24;

describe('ingest: interrupted and options', () => {
  let folder: string;
  let dataDir: string;
  let env: Record<string, string>;
  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-kill-'));
    dataDir = path.join(folder, 'data');
    await mkdir(path.join(folder, 'wavs'));
    for (let i = 0; i < FILES; i++) {
      await writeFile(
        path.join(folder, 'wavs', `noise-${String(i).padStart(2, '0')}.wav`),
        encodeWavFloat32({
          sampleRate: 44_100,
          channels: [noise(i + 1, -20, 44_100 * 4), noise(i + 101, -20, 44_100 * 4)],
        }),
      );
    }
    env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };
  });
  after(() => rm(folder, { recursive: true, force: true }));

  const rows = async () => {
    if (!onPostgres && !existsSync(path.join(dataDir, 'catalog.sqlite'))) return [];
    const db = await otherConnection(dataDir, { readonly: true });
    try {
      return await db.all<{ name: string; file_key: string; file_size: number; content_hash: string }>(
        'SELECT name, file_key, file_size, content_hash FROM sounds',
      );
    } catch (error) {
      // Polled while the ingest is still creating the schema: no sounds yet.
      if (/no such table|does not exist/.test((error as Error).message)) return [];
      throw error;
    } finally {
      await db.close();
    }
  };

  test(
    'ingest.killed: a run killed mid-way leaves only whole ' + 'sounds, and a re-run completes without duplicates',
    async () => {
      const child = spawn(process.execPath, [BIN, 'ingest', path.join(folder, 'wavs'), '--json'], {
        env: { ...process.env, ...(await backendOf(env)), ...env },
        stdio: 'ignore',
      });
      // Kill it (no chance to clean up) once a few sounds are in.
      for (let waited = 0; (await rows()).length < 3; waited += 50) {
        assert.ok(waited < 120_000 && child.exitCode === null, 'the ingest made progress before the kill');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const before = await rows();
      assert.ok(before.length < FILES, 'it was stopped part way');
      for (const row of before)
        assert.equal((await stat(path.join(dataDir, 'audio', row.file_key))).size, row.file_size);

      const rerun = await runCli(['ingest', path.join(folder, 'wavs'), '--json'], env);
      assert.equal(rerun.status, 0, rerun.stderr);
      assert.deepEqual(rerun.json, { added: FILES - before.length, updated: before.length, failed: [], skipped: [] });
      const afterRows = await rows();
      assert.equal(afterRows.length, FILES);
      assert.equal(new Set(afterRows.map((row) => row.content_hash)).size, FILES);
      assert.deepEqual(
        await readdir(path.join(dataDir, 'audio', '.tmp')),
        [],
        'scratch files of the killed run are swept',
      );
      const stored = (await readdir(path.join(dataDir, 'audio'), { recursive: true })).filter((name) =>
        name.endsWith('.mp3'),
      );
      assert.equal(stored.length, FILES, 'one file per sound, none left over');
    },
  );

  test('ingest.duplicates: the same content twice in one run is one sound, added once and updated once', async () => {
    const twins = path.join(folder, 'twins');
    await mkdir(twins);
    const bytes = encodeWavFloat32({ sampleRate: 44_100, channels: [noise(4242, -20, 44_100)] });
    await writeFile(path.join(twins, 'twin-a.wav'), bytes);
    await writeFile(path.join(twins, 'twin-b.wav'), bytes);
    const result = await runCli(['ingest', twins, '--json'], env);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.json, { added: 1, updated: 1, failed: [], skipped: [] });
    assert.equal((await rows()).filter((row) => row.name.startsWith('Twin')).length, 1);
  });

  test('ingest.progress: without a terminal, progress is reported in plain lines on standard error', async () => {
    const result = await runCli(['ingest', path.join(folder, 'wavs', 'noise-00.wav'), '--json'], env);
    assert.match(result.stderr, /^1\/1 files .*\n$/m);
    assert.deepEqual(result.json, { added: 0, updated: 1, failed: [], skipped: [] });
  });

  test('ingest.quality: --bitrate encodes at a constant rate; bad values are refused', async () => {
    const other = path.join(folder, 'cbr');
    await mkdir(other);
    await writeFile(
      path.join(other, 'cbr-tone.wav'),
      encodeWavFloat32({ sampleRate: 44_100, channels: [noise(999, -20, 44_100 * 4)] }),
    );
    const result = await runCli(['ingest', other, '--bitrate', '64', '--json'], env);
    assert.equal(result.status, 0, result.stderr);
    const row = (await rows()).find((r) => r.name === 'Cbr Tone')!;
    // 4 s at 64 kbit/s is 32,000 bytes of frames, plus the Info frame.
    assert.ok(Math.abs(row.file_size - 32_000) < 1500, `size ${row.file_size}`);
    const bad = await runCli(['ingest', other, '--vbr-quality', '12'], env);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /vbrQuality must be between 0 and 9/);
  });
});
