import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createQueryId, type RootOperationNode } from 'kysely';
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
