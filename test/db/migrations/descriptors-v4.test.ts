import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openPostgres } from '../../../src/db/dialects/postgres.ts';
import { openSqlite } from '../../../src/db/dialects/sqlite.ts';
import { migrate } from '../../../src/db/index.ts';
import { backendEnv, otherConnection, prepareBackend } from '../../helpers/backend.ts';
import { startServer } from '../../helpers/server.ts';

test(
  'migrate.017: descriptors measured before it are cleared, ' +
    'so that old and new vectors are never compared, and the sounds stay',
  async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-migrate-017-'));
    await prepareBackend(dataDir);
    const url = backendEnv(dataDir).DATABASE_URL;
    const handle = url ? openPostgres(url) : openSqlite(path.join(dataDir, 'catalog.sqlite'));
    // Two sounds as the analyzer of that release described them: 11 axes and 95 measures.
    const old = JSON.stringify(Array.from({ length: 106 }, (_, i) => Math.sin(i)));
    try {
      await migrate(handle, '015_unlocked_change_log');
      for (const [id, name] of [
        ['abcdef0123456789', 'Old Kick'],
        ['abcdef0123456790', 'Old Snare'],
      ])
        await sql`INSERT INTO sounds (id, name, description, tags, category, license, duration, content_hash, file_key, file_size, created_at, updated_at, descriptors)
        VALUES (${id}, ${name}, null, '["drum"]', 'SFX', 'CC0', 0.5, ${`hash-${id}`}, ${`ab/${id}.mp3`}, 100,
          '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ${old})`.execute(handle.db);
    } finally {
      await handle.close();
    }

    const server = await startServer({ dataDir });
    try {
      const connection = await otherConnection(dataDir, { readonly: true });
      try {
        const rows = await connection.all<{ descriptors: string | null }>('SELECT descriptors FROM sounds');
        assert.deepEqual(rows, [{ descriptors: null }, { descriptors: null }]);
      } finally {
        await connection.close();
      }
      const { key } = await server.account('pro');
      const similar = await server.get('/api/v1/sounds/abcdef0123456789/similar?limit=5', { key });
      assert.equal(similar.status, 200);
      assert.deepEqual(((await similar.json()) as { data: unknown[] }).data, []);
      assert.equal((await server.get('/api/v1/sounds/abcdef0123456790', { key })).status, 200);
    } finally {
      await server.close();
    }
  },
);
