import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/index.ts';
import { ReaderThread } from '../../src/db/reader.ts';

describe('reader thread', () => {
  let dataDir: string;
  let database: DatabaseHandle;
  let reader: ReaderThread;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-reader-'));
    database = await openDatabase({ dataDir });
    reader = new ReaderThread(path.join(dataDir, 'catalog.sqlite'));
  });
  after(async () => {
    await reader.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('reader.sees-writes: a row committed on the main connection is read by the next query', async () => {
    const count = async () => (await reader.query('SELECT count(*) AS n FROM accounts', []))[0];
    assert.deepEqual(await count(), { n: 0 });
    await database.db.insertInto('accounts').values({
      id: 'a1', email: 'reader@example.com', plan: 'pro', password_hash: null, created_at: new Date(0).toISOString(),
    }).execute();
    assert.deepEqual(await count(), { n: 1 });
    assert.deepEqual(await reader.query('SELECT email FROM accounts WHERE id = ?', ['a1']), [{ email: 'reader@example.com' }]);
  });

  test('reader.errors: a failing query or any write is refused with SQLite\'s message, and the thread goes on', async () => {
    await assert.rejects(reader.query('SELECT name FROM nowhere', []), { message: 'no such table: nowhere', code: 'SQLITE_ERROR' });
    await assert.rejects(reader.query('DELETE FROM accounts', []), /does not return data/);
    await assert.rejects(reader.query('DELETE FROM accounts RETURNING id', []), { code: 'SQLITE_READONLY' });
    assert.deepEqual(await reader.query('SELECT 1 AS one', []), [{ one: 1 }]);
  });

  test('reader.lost: queries in flight when the thread dies fail, and the next query starts another', async () => {
    // A query long enough to be in flight when the thread is stopped from outside.
    const slow = reader.query('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000000) SELECT count(*) FROM n', []);
    const worker = (reader as unknown as { worker: { terminate(): Promise<number> } }).worker;
    await worker.terminate();
    await assert.rejects(slow, /reader thread stopped/);
    assert.deepEqual(await reader.query('SELECT 2 AS two', []), [{ two: 2 }]);
  });

  test('reader.closed: a closed reader refuses queries', async () => {
    const closed = new ReaderThread(path.join(dataDir, 'catalog.sqlite'));
    assert.deepEqual(await closed.query('SELECT 3 AS three', []), [{ three: 3 }]);
    await closed.close();
    await assert.rejects(closed.query('SELECT 3', []), /closed/);
  });
});
