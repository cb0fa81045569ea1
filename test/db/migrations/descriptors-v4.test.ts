import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { migrate } from '../../../src/db/index.ts';
import { openBackendDatabase, removeBackend } from '../../helpers/backend.ts';

test('migrate.017: descriptors measured before it are cleared, for analyze --missing; sounds without stay so', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-migrate-017-'));
  const handle = await openBackendDatabase(dataDir);
  try {
    await migrate(handle, '016_loops');
    const old = JSON.stringify(Array.from({ length: 106 }, (_, i) => i / 10));
    for (const [id, descriptors] of [
      ['0123456789abcdef', old],
      ['fedcba9876543210', null],
    ] as const) {
      await sql`INSERT INTO sounds (id, name, description, tags, category, license, duration, content_hash, file_key, file_size, created_at, updated_at, descriptors)
      VALUES (${id}, 'Old Kick', 'a hit', '["kick"]', 'SFX', 'CC0', 0.5, ${`hash-${id}`}, ${`ab/${id}.mp3`}, 100,
        '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ${descriptors})`.execute(handle.db);
    }
    assert.deepEqual(await migrate(handle), ['017_descriptors_v4']);
    const rows = await sql<{ id: string; descriptors: string | null; name: string }>`
      SELECT id, descriptors, name FROM sounds ORDER BY id`.execute(handle.db);
    assert.deepEqual(rows.rows, [
      { id: '0123456789abcdef', descriptors: null, name: 'Old Kick' },
      { id: 'fedcba9876543210', descriptors: null, name: 'Old Kick' },
    ]);
  } finally {
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir);
  }
});
