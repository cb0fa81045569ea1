import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../../src/db/index.ts';

/** 1,500 commits of a 2 kB row each: about 3 MB of WAL, more than SQLite's 1,000-page threshold. */
async function writeMany(handle: DatabaseHandle): Promise<void> {
  await sql`CREATE TABLE filler (n INTEGER PRIMARY KEY, body TEXT)`.execute(handle.db);
  for (let n = 0; n < 1500; n++)
    await sql`INSERT INTO filler (n, body) VALUES (${n}, ${'x'.repeat(2000)})`.execute(handle.db);
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (condition()) return true;
  }
  return condition();
}

describe('SQLite checkpoints off the event loop', () => {
  test(
    "checkpoints.background: with the server's checkpointer the commits " +
      'write only the WAL, and the worker moves it into the database file',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-checkpoints-'));
      const file = path.join(dataDir, 'catalog.sqlite');
      const handle = await openDatabase({ dataDir });
      try {
        handle.checkpointInBackground((reason) => assert.fail(reason));
        const before = statSync(file).size;
        await writeMany(handle);
        // The commits themselves no longer checkpoint: the rows are in the WAL...
        const pragma = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(handle.db);
        assert.equal(pragma.rows[0]!.wal_autocheckpoint, 0);
        // ...and the worker copies them into the database file within its interval.
        assert.ok(
          await until(() => statSync(file).size >= before + 3_000_000, 5000),
          `database file ${statSync(file).size} bytes after the writes`,
        );
        const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(handle.db);
        assert.equal(Number(rows.rows[0]!.n), 1500);
      } finally {
        await handle.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  test(
    "checkpoints.default: without it (the command-line tools), SQLite's " +
      'commits checkpoint as usual, and closing stops nothing that is not there',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-checkpoints-'));
      const handle = await openDatabase({ dataDir });
      try {
        const pragma = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(handle.db);
        assert.equal(pragma.rows[0]!.wal_autocheckpoint, 1000);
        await writeMany(handle);
        assert.ok(statSync(path.join(dataDir, 'catalog.sqlite')).size >= 3_000_000);
      } finally {
        await handle.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
