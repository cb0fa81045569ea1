import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { removeBackend } from '../helpers/backend.ts';
import { runCli } from '../helpers/cli.ts';
import { startServe } from '../helpers/process.ts';

describe('migrate', () => {
  test('migrate: applies what is missing once, then reports an up-to-date schema', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-migrate-'));
    try {
      const first = await runCli(['migrate', '--json'], { SOUND_CATALOG_DATA: dataDir });
      assert.equal(first.status, 0, first.stderr);
      assert.deepEqual(first.json.applied, [
        '001_initial',
        '002_dashboard',
        '003_catalog_changes',
        '004_descriptors',
        '005_descriptors_v2',
        '006_drop_list_indexes',
        '007_renditions',
        '008_round_loudness',
        '009_drop_unread_columns',
        '010_secrets',
        '011_change_kinds',
        '012_rendition_claims',
        '013_descriptors_v3',
        '014_download_counts',
        '015_unlocked_change_log',
        '016_loops',
        '017_descriptors_v4',
      ]);
      const again = await runCli(['migrate'], { SOUND_CATALOG_DATA: dataDir });
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, /schema is up to date/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await removeBackend(dataDir);
    }
  });

  test(
    'migrate.off: with SOUND_CATALOG_MIGRATE=0 serve refuses ' +
      'a schema that is behind, and starts once it is migrated',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-migrate-off-'));
      const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', SOUND_CATALOG_MIGRATE: '0' };
      try {
        const refused = await runCli(['serve'], env);
        assert.equal(refused.status, 1);
        assert.match(
          refused.stderr,
          new RegExp(
            'schema is behind \\(001_initial, 002_dashboard, 003_catalog_changes, 004_descriptors, ' +
              '005_descriptors_v2, 006_drop_list_indexes, 007_renditions, 008_round_loudness, ' +
              '009_drop_unread_columns, ' +
              '010_secrets, 011_change_kinds, 012_rendition_claims, 013_descriptors_v3, 014_download_counts, ' +
              '015_unlocked_change_log, 016_loops, 017_descriptors_v4 not applied\\): run "sound-catalog migrate"',
          ),
        );
        assert.equal((await runCli(['migrate'], env)).status, 0);
        const server = await startServe(env);
        try {
          assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
        } finally {
          assert.equal(await server.stop(), 0);
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
        await removeBackend(dataDir);
      }
    },
  );
});
