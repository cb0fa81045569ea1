import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { migrate } from '../../../src/db/index.ts';
import { openBackendDatabase, otherConnection } from '../../helpers/backend.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startServer } from '../../helpers/server.ts';

test(
  'migrate.016: a database made at migration 015 gains empty loop columns, logs no change for them, ' +
    'and a loop written later reaches the change feed, the index and the details',
  async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-migrate-016-'));
    const handle = await openBackendDatabase(dataDir);
    try {
      await migrate(handle, '015_unlocked_change_log');
      // A sound as the writer of that release stored it.
      await sql`INSERT INTO sounds (id, name, description, tags, category, license, duration, content_hash, file_key, file_size, created_at, updated_at)
      VALUES ('abcdef0123456789', 'Old Drone', 'held', '["drone"]', 'AMBIENT', 'CC0', 2.5, 'hash-old-drone', 'ab/old.mp3', 100,
        '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(handle.db);
    } finally {
      await handle.close();
    }
    const changesBefore = await changeCount(dataDir);

    const server = await startServer({ dataDir });
    try {
      assert.equal(await changeCount(dataDir), changesBefore, 'adding the columns logs no change');
      const { key } = await server.account('pro');
      const details = async () =>
        ((await (await server.get('/api/v1/sounds/abcdef0123456789', { key })).json()) as { data: { loop: unknown } })
          .data.loop;
      assert.equal(await details(), null);
      const looped = async () =>
        ((await (await server.get('/api/v1/sounds?loop=true', { key })).json()) as { data: Array<{ id: string }> })
          .data;
      assert.deepEqual(await looped(), []);

      // Another process writes a loop: the change log carries it to this server's index.
      const connection = await otherConnection(dataDir);
      try {
        await connection.run(
          "UPDATE sounds SET loop_start_sample = 0, loop_end_sample = 110250 WHERE id = 'abcdef0123456789'",
        );
      } finally {
        await connection.close();
      }
      assert.equal(await changeCount(dataDir), changesBefore + 1, 'the loop is logged as an update');
      await eventually(looped, (sounds) => sounds.length === 1, 2000, 'the loop reaches the index');
      assert.deepEqual(await details(), { start_sample: 0, end_sample: 110250 });
      const changes = (await (await server.get('/api/v1/changes', { key })).json()) as {
        data: Array<{ id: string; change: string }>;
      };
      assert.deepEqual(changes.data.at(-1), { ...changes.data.at(-1), id: 'abcdef0123456789', change: 'updated' });
    } finally {
      await server.close();
    }
  },
);

async function changeCount(dataDir: string): Promise<number> {
  const connection = await otherConnection(dataDir, { readonly: true });
  try {
    const [row] = await connection.all<{ n: number | string }>('SELECT count(*) AS n FROM catalog_changes');
    return Number(row!.n);
  } finally {
    await connection.close();
  }
}
