import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { writeWav } from '../audio/helpers/wav.ts';
import { runCli } from '../helpers/cli.ts';
import { startServe } from '../helpers/process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('build', () => {
  test('build.missing: without dist/ the command says how to build it, and starts nothing', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'sound-catalog-build-'));
    try {
      await mkdir(path.join(root, 'bin'));
      await copyFile(path.join(ROOT, 'bin/sound-catalog.js'), path.join(root, 'bin/sound-catalog.js'));
      const result = await runCli(['serve'], {}, path.join(root, 'bin/sound-catalog.js'));
      assert.equal(result.status, 1);
      assert.match(result.stderr, /dist\/\) is missing.*npm install/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test(
    'build.compiled: the compiled service serves the ' + 'API, docs and dashboard, and ingests with its workers',
    async () => {
      // Inside the project, so the build finds node_modules as dist/ does.
      const out = path.join(ROOT, 'test-output', `build-${process.pid}`, 'dist');
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-build-data-'));
      try {
        await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--out', out]);
        const main = path.join(out, 'main.js');
        const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };

        const folder = path.join(dataDir, 'incoming');
        await mkdir(folder);
        const zap = new Float32Array(22_050).map((_, i) => 0.5 * Math.sin(i * (0.3 - i / 100_000)));
        await writeFile(path.join(folder, 'laser zap.wav'), writeWav({ sampleRate: 44_100, channels: [zap] }));
        const ingest = await runCli(['ingest', folder, '--json'], env, main);
        assert.equal(ingest.status, 0, ingest.stderr);
        assert.equal(ingest.json.added, 1);

        const server = await startServe(env, 60_000, main);
        try {
          assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
          const sample = await fetch(`${server.url}/api/v1/sounds/sample`);
          assert.equal(sample.status, 200);
          assert.equal((await fetch(`${server.url}/openapi.json`)).status, 200);
          const docs = await fetch(`${server.url}/docs`);
          assert.equal(docs.status, 200);
          assert.match(await docs.text(), /swagger/i);
          const css = await fetch(`${server.url}/dashboard/assets/dashboard.css`);
          assert.equal(css.status, 200);
        } finally {
          assert.equal(await server.stop(), 0);
        }
      } finally {
        await rm(path.dirname(out), { recursive: true, force: true });
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
