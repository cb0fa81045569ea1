import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { createQueryId, type RootOperationNode, sql } from 'kysely';
import { DownloadCounts } from '../../src/catalog/download-counts.ts';
import { createServices } from '../../src/wiring.ts';
import { configFor, onPostgres, otherConnection } from '../helpers/backend.ts';

/**
 * Every instance reads the counts changed since its cursor ten times a second. That read must be
 * seeks of the (version, sound_seq) index past the cursor, not a walk of every count: a catalog's
 * counts may all sit at one version (the one a migration or an import gave them), and a read of
 * every row of the cursor's version would read the whole table each time. A seek on `version`
 * alone (`(version>?)` in SQLite's plan of a row value) is such a read: it names both columns.
 */
test('download-counts.poll-range: the changed counts are read as seeks of the version index', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'download-counts-'));
  const services = await createServices(await configFor(dataDir));
  const other = await otherConnection(dataDir);
  try {
    const { db, dialect } = services.database;
    const queries: RootOperationNode[] = [];
    const recording = db.withPlugin({
      transformQuery: ({ node }) => (queries.push(node), node),
      transformResult: async ({ result }) => result,
    });
    await new DownloadCounts(recording, dialect).changedSince({ version: 5, soundSeq: 7, running: [] }, 100);
    assert.equal(queries.length, 1);
    const query = db.getExecutor().compileQuery(queries[0]!, createQueryId());
    const statement = onPostgres ? query.sql.replace(/\$\d+/g, '?') : query.sql;
    if (onPostgres) {
      // The table is nearly empty, so the planner would scan it anyway: ask whether it can seek.
      await other.run('SET enable_seqscan = off');
      const plan = (await other.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement}`, ...query.parameters))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      assert.match(plan, /Index Cond: \(\(version = '5'::bigint\) AND \(sound_seq > 7\)\)/, plan);
      assert.match(plan, /Index Cond: \(version > '5'::bigint\)/, plan);
      assert.doesNotMatch(plan, /Seq Scan/, plan);
    } else {
      const plan = await other.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`, ...query.parameters);
      const reads = plan.map((row) => row.detail).filter((detail) => detail.includes('sound_downloads'));
      assert.deepEqual(reads, [
        'SEARCH sound_downloads USING INDEX sound_downloads_by_version (version=? AND sound_seq>?)',
        'SEARCH sound_downloads USING INDEX sound_downloads_by_version (version>?)',
      ]);
    }
  } finally {
    await other.close();
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

/**
 * One commit gives every count it changes the same version (a turn's downloads), so a poll's page
 * can end inside a version. The next poll goes on after the last sound read in that version, then
 * to the versions after it: every changed count is read, at its committed value.
 */
test('download-counts.pages: pages that end inside the counts of one commit read every count', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'download-counts-'));
  const services = await createServices(await configFor(dataDir));
  try {
    const { db, dialect } = services.database;
    await sql`
      INSERT INTO sounds (id, name, tags, duration, content_hash, file_key, file_size, created_at, updated_at)
      VALUES ${sql.join(
        [1, 2, 3, 4, 5, 6].map(
          (i) => sql`(${`paged-${i}`}, ${`Paged ${i}`}, '[]', 1, ${`paged-${i}`}, ${`paged/${i}`}, 1,
            '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
        ),
      )}`.execute(db);
    const seqs = (await db.selectFrom('sounds').select('seq').orderBy('seq').execute()).map((row) => Number(row.seq));
    const counts = new DownloadCounts(db, dialect);
    const stored = async () =>
      new Map(
        (await db.selectFrom('sound_downloads').select(['sound_seq', 'count']).execute()).map((row) => [
          Number(row.sound_seq),
          Number(row.count),
        ]),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.nat(5), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 4 }),
        async (commits, limit) => {
          let cursor = await counts.cursorNow();
          // The downloads of one turn share one commit.
          for (const sounds of commits) await Promise.all(sounds.map((i) => counts.add(seqs[i]!)));
          const seen = new Map<number, number>();
          for (let more = true, pages = 0; more; pages++) {
            // At most 24 counts change (4 commits of 6): a reader going on past that reads one again.
            assert.ok(pages <= 25, 'the reader comes to the end');
            const page = await counts.changedSince(cursor, limit);
            assert.ok(page.counts.length <= limit, `a page of at most ${limit}`);
            for (const { soundSeq, count } of page.counts) seen.set(soundSeq, Math.max(seen.get(soundSeq) ?? 0, count));
            cursor = page.cursor;
            more = page.more;
          }
          const now = await stored();
          const changed = new Set(commits.flat().map((i) => seqs[i]!));
          assert.deepEqual(
            [...seen].sort(([a], [b]) => a - b),
            [...changed].sort((a, b) => a - b).map((seq) => [seq, now.get(seq)]),
          );
        },
      ),
      { numRuns: 30 },
    );
  } finally {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
