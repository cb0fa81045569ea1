import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { migrate } from '../../../src/db/index.ts';
import { openBackendDatabase, otherConnection } from '../../helpers/backend.ts';
import { startServer } from '../../helpers/server.ts';

test(
  'migrate.009: a database made at migration 008 loses ' +
    'sounds.search_text and sound_tags, and keeps its sounds and counts',
  async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-migrate-009-'));
    const handle = await openBackendDatabase(dataDir);
    try {
      await migrate(handle, '008_round_loudness');
      // A sound as the writer of that release stored it.
      await sql`INSERT INTO sounds (id, name, description, tags, category, license, duration, search_text, num_downloads, content_hash, file_key, file_size, created_at, updated_at)
      VALUES ('abcdef0123456789', 'Old Gong', 'struck once', '["gong","metal"]', 'SFX', 'CC0', 2.5, 'old gong struck once gong metal', 12, 'hash-old-gong', 'ab/old.mp3', 100,
        '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(handle.db);
      await sql`INSERT INTO sound_tags (sound_seq, tag) SELECT seq, 'gong' FROM sounds`.execute(handle.db);
    } finally {
      await handle.close();
    }

    const server = await startServer({ dataDir });
    try {
      const connection = await otherConnection(dataDir, { readonly: true });
      try {
        await assert.rejects(connection.all('SELECT search_text FROM sounds'), /search_text/);
        await assert.rejects(connection.all('SELECT * FROM sound_tags'), /sound_tags/);
        const applied = await connection.all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name');
        assert.ok(applied.some((row) => row.name === '009_drop_unread_columns'));
      } finally {
        await connection.close();
      }
      const { key } = await server.account('pro');
      const found = (await (await server.get('/api/v1/sounds?q=gong&tags=metal', { key })).json()) as {
        data: Array<{ id: string; name: string; tags: string[] }>;
      };
      assert.deepEqual(
        found.data.map(({ id, name, tags }) => ({ id, name, tags })),
        [{ id: 'abcdef0123456789', name: 'Old Gong', tags: ['gong', 'metal'] }],
      );
      assert.equal((await server.get('/api/v1/sounds/abcdef0123456789/download', { key })).status, 200);
      const popular = (await (await server.get('/api/v1/sounds/popular?limit=1', { key })).json()) as {
        data: Array<{ id: string; numDownloads: number }>;
      };
      assert.deepEqual(
        popular.data.map(({ id, numDownloads }) => ({ id, numDownloads })),
        [{ id: 'abcdef0123456789', numDownloads: 13 }],
      );
    } finally {
      await server.close();
    }
  },
);
