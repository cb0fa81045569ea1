import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { removeBackend, SHARED, sharedBackendsMissing, sharedEnv } from '../helpers/backend.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

// Always on PostgreSQL, as the scale-out tests: SQLite commits one writer at a time.
const skip = await sharedBackendsMissing();

type Change = { id: string; change: string };

/**
 * On PostgreSQL, writers of the catalog share no lock: a change log number can become visible
 * after a larger one, or never (a rollback). Mirrors and the search index still read every change
 * exactly once, in log order, because they read only up to the frontier (catalog/change-log-frontier.ts).
 */
describe('the change log on PostgreSQL, written side by side', { skip }, () => {
  let server: TestServer;
  let key: string;
  let databaseUrl: string;
  const ids: string[] = [];
  const writers: pg.Client[] = [];

  before(async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-frontier-'));
    const env = await sharedEnv(dataDir);
    databaseUrl = env.DATABASE_URL!;
    server = await startServer({ dataDir, env });
    ({ key } = await server.account('enterprise'));
    for (let n = 0; n < 6; n++)
      ids.push((await addSound(server.services, { name: `Frontier Probe ${'abcdef'[n]}` })).id);
    await server.services.catalog.start();
    for (let n = 0; n < 4; n++) {
      // A writer that would wait for a lock fails instead of hanging the test.
      const client = new pg.Client({ connectionString: databaseUrl, statement_timeout: 2000 });
      await client.connect();
      writers.push(client);
    }
  });
  after(async () => {
    await Promise.all(writers.map((client) => client.end()));
    await server.close({ keepData: true });
    await rm(server.dataDir, { recursive: true, force: true });
    await removeBackend(server.dataDir, SHARED.databaseUrl);
  });

  /** Every change after `since`, read page by page as a mirror does; and the cursor to go on from. */
  async function follow(since: string | null): Promise<{ changes: Change[]; cursor: string }> {
    const changes: Change[] = [];
    for (let cursor = since; ; ) {
      const answer = await server.get(`/api/v1/changes?limit=7${cursor === null ? '' : `&since=${cursor}`}`, { key });
      assert.equal(answer.status, 200);
      const body = (await answer.json()) as { data: Change[]; next_cursor: string };
      changes.push(...body.data.map(({ id, change }) => ({ id, change })));
      if (body.data.length === 0) return { changes, cursor: body.next_cursor };
      cursor = body.next_cursor;
    }
  }
  const rename = (client: pg.Client, id: string, name: string) =>
    client.query('UPDATE sounds SET name = $1 WHERE id = $2', [name, id]);

  test(
    'changes.no-lock: a writer commits while another is ' + 'still open; the later change waits for the earlier one',
    async () => {
      const [slow, quick] = writers as [pg.Client, pg.Client];
      let { cursor } = await follow(null);
      await slow.query('BEGIN');
      await rename(slow, ids[0]!, 'Frontier Slow Writer');
      // Not blocked by the open transaction (statement_timeout would fail it).
      await rename(quick, ids[1]!, 'Frontier Quick Writer');
      // The quick change has the larger number: no reader may pass the slow one's number yet.
      const early = await follow(cursor);
      assert.deepEqual(early.changes, []);
      const hidden = await (await server.get('/api/v1/sounds?q=frontier%20quick', { key })).json();
      assert.equal(hidden.data.length, 0, 'the index follows the log no further either');
      await slow.query('COMMIT');
      const late = await eventually(
        () => follow(cursor),
        (read) => read.changes.length === 2,
        2000,
        'both changes arrive',
      );
      assert.deepEqual(late.changes, [
        { id: ids[0], change: 'updated' },
        { id: ids[1], change: 'updated' },
      ]);
      cursor = late.cursor;
      await eventually(
        async () => (await (await server.get('/api/v1/sounds?q=frontier%20quick', { key })).json()).data.length,
        (found) => found === 1,
        2000,
        'the index follows',
      );
    },
  );

  test('changes.rollback: a number rolled back is passed once its writer is done', async () => {
    const [slow, quick] = writers as [pg.Client, pg.Client];
    const { cursor } = await follow(null);
    await slow.query('BEGIN');
    await rename(slow, ids[2]!, 'Frontier Never Written');
    await rename(quick, ids[3]!, 'Frontier After Rollback');
    assert.deepEqual((await follow(cursor)).changes, []);
    await slow.query('ROLLBACK');
    const read = await eventually(
      () => follow(cursor),
      (found) => found.changes.length === 1,
      2000,
      'the gap is passed',
    );
    assert.deepEqual(read.changes, [{ id: ids[3], change: 'updated' }]);
  });

  test('changes.unrelated: a long transaction that writes no log number holds the feed back not at all', async () => {
    const [other, quick] = writers as [pg.Client, pg.Client];
    const { cursor } = await follow(null);
    // A transaction with an id of its own, open across the rollback below, writing another table.
    await other.query('CREATE TEMPORARY TABLE IF NOT EXISTS unrelated_work (n int)');
    await other.query('BEGIN');
    await other.query('INSERT INTO unrelated_work VALUES (1)');
    try {
      const [slow] = writers.slice(2) as [pg.Client];
      await slow.query('BEGIN');
      await rename(slow, ids[4]!, 'Frontier Rolled Back Beside');
      await rename(quick, ids[5]!, 'Frontier Passed Beside');
      await slow.query('ROLLBACK');
      const read = await eventually(
        () => follow(cursor),
        (found) => found.changes.length === 1,
        2000,
        'the gap is passed while the other transaction runs',
      );
      assert.deepEqual(read.changes, [{ id: ids[5], change: 'updated' }]);
    } finally {
      await other.query('COMMIT');
    }
  });

  test('changes.late-writer: a writer begun after a larger number committed is still waited for', async () => {
    const [early, rolledBack, late] = writers as [pg.Client, pg.Client, pg.Client];
    const { cursor } = await follow(null);
    await early.query('BEGIN');
    await rename(early, ids[0]!, 'Frontier Early Writer');
    await rolledBack.query('BEGIN');
    await rename(rolledBack, ids[1]!, 'Frontier Rolled Back Between');
    await rolledBack.query('ROLLBACK');
    await late.query('BEGIN');
    await rename(late, ids[2]!, 'Frontier Late Writer');
    try {
      await rename(early, ids[0]!, 'Frontier Early Writer Again');
      await early.query('COMMIT');
      // The late writer's transaction id is past the xmax of every snapshot taken now: it is
      // still waited for, and its number is read in order once it commits.
      const waiting = await follow(cursor);
      assert.deepEqual(waiting.changes, [{ id: ids[0], change: 'updated' }]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual((await follow(waiting.cursor)).changes, [], 'the late number holds the feed back');
      await late.query('COMMIT');
      const rest = await eventually(
        () => follow(waiting.cursor),
        (read) => read.changes.length === 2,
        2000,
        'the late change and the one after it arrive',
      );
      assert.deepEqual(rest.changes, [
        { id: ids[2], change: 'updated' },
        { id: ids[0], change: 'updated' },
      ]);
    } finally {
      await late.query('ROLLBACK').catch(() => undefined);
    }
  });

  test(
    'changes.side-by-side: writers committing and rolling ' + 'back in any order; a mirror reads the log exactly',
    async () => {
      const log = new pg.Client({ connectionString: databaseUrl });
      await log.connect();
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.record({ writer: fc.nat(3), commit: fc.boolean() }), { minLength: 1, maxLength: 12 }),
            fc.array(fc.nat(3), { minLength: 1, maxLength: 12 }),
            async (writes, endings) => {
              const start = await follow(null);
              const newest = Number(
                (await log.query('SELECT coalesce(max(seq), 0) AS seq FROM catalog_changes')).rows[0].seq,
              );
              const open = new Map<number, boolean>();
              const mirror: Change[] = [];
              let cursor = start.cursor;
              try {
                for (const [n, write] of writes.entries()) {
                  const client = writers[write.writer]!;
                  if (!open.has(write.writer)) await client.query('BEGIN');
                  // Each writer its own sound: open writers never wait for each other's rows.
                  await rename(client, ids[write.writer]!, `Frontier Round ${n}`);
                  open.set(write.writer, write.commit && (open.get(write.writer) ?? true));
                  // Some writers end here, in the order drawn, while the mirror reads.
                  const ending = endings[n % endings.length]!;
                  if (open.has(ending)) {
                    await writers[ending]!.query(open.get(ending) ? 'COMMIT' : 'ROLLBACK');
                    open.delete(ending);
                  }
                  const read = await follow(cursor);
                  mirror.push(...read.changes);
                  cursor = read.cursor;
                }
                for (const [writer, commit] of open) await writers[writer]!.query(commit ? 'COMMIT' : 'ROLLBACK');
                open.clear();
              } finally {
                // A failed round leaves no writer open to hold the next rounds back.
                for (const writer of open.keys()) await writers[writer]!.query('ROLLBACK');
              }
              const committed = (
                await log.query(
                  'SELECT sound_id AS id, kind AS change FROM catalog_changes WHERE seq > $1 ORDER BY seq',
                  [newest],
                )
              ).rows as Change[];
              const rest = await eventually(
                () => follow(cursor),
                (read) => mirror.length + read.changes.length >= committed.length,
                2000,
                'the mirror catches up',
              );
              mirror.push(...rest.changes);
              assert.deepEqual(mirror, committed);
            },
          ),
          {
            numRuns: 15,
            examples: [
              // A writer begun after one with a larger number, which commits: the snapshot's
              // running list leaves the later writer out (its id is past the snapshot's xmax).
              [
                [
                  { writer: 1, commit: true },
                  { writer: 0, commit: false },
                  { writer: 2, commit: true },
                  { writer: 1, commit: true },
                  { writer: 1, commit: false },
                ],
                [0, 0, 0, 1],
              ],
            ],
          },
        );
      } finally {
        await log.end();
      }
    },
  );
});
