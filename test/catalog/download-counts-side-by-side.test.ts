import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { DownloadCounts } from '../../src/catalog/download-counts.ts';
import { loadConfig } from '../../src/config.ts';
import type { Services } from '../../src/services.ts';
import { createServices } from '../../src/wiring.ts';
import { removeBackend, SHARED, sharedBackendsMissing, sharedEnv } from '../helpers/backend.ts';

// Always on PostgreSQL: SQLite commits one writer at a time, so its versions arrive in order.
const skip = await sharedBackendsMissing();

/** A count as download-counts.ts writes it: the version is the writing transaction's id. */
const COUNT = `
  INSERT INTO sound_downloads (sound_seq, count, version)
  VALUES ($1, 1, CAST(CAST(pg_current_xact_id() AS text) AS bigint))
  ON CONFLICT (sound_seq) DO UPDATE SET count = sound_downloads.count + 1, version = excluded.version`;

/**
 * On PostgreSQL, writers of download counts share no lock: a count can become visible after one
 * with a larger version. Another instance reads every count anyway, in any order of commits and
 * rollbacks, with a transaction that writes no count left open beside them.
 */
describe('download counts on PostgreSQL, written side by side', { skip }, () => {
  let services: Services;
  let dataDir: string;
  const writers: pg.Client[] = [];
  let idle: pg.Client;
  const seqs: number[] = [];

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sc-counts-'));
    const env = await sharedEnv(dataDir);
    services = await createServices(loadConfig(env));
    for (let n = 0; n < 5; n++) {
      // A writer that would wait for a lock fails instead of hanging the test.
      const client = new pg.Client({ connectionString: env.DATABASE_URL, statement_timeout: 2000 });
      await client.connect();
      writers.push(client);
    }
    idle = writers.pop()!;
    const { rows } = await writers[0]!.query(
      `INSERT INTO sounds (id, name, tags, duration, content_hash, file_key, file_size, created_at, updated_at)
       SELECT 'counted-' || i, 'Counted ' || i, '[]', 1, 'counted-' || i, 'counted/' || i, 1,
              '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
       FROM generate_series(1, 4) AS i RETURNING seq`,
    );
    seqs.push(...rows.map((row: { seq: number }) => Number(row.seq)));
  });
  after(async () => {
    await Promise.all([...writers, idle].map((client) => client.end()));
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir, SHARED.databaseUrl);
  });

  test(
    'download-counts.side-by-side: writers committing and rolling back in any order, and a transaction ' +
      'left open; a reader ends with every committed count',
    async () => {
      const { db, dialect } = services.database;
      const counts = new DownloadCounts(db, dialect);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ writer: fc.nat(3), commit: fc.boolean() }), {
            minLength: 1,
            maxLength: 12,
          }),
          fc.array(fc.nat(3), { minLength: 1, maxLength: 12 }),
          fc.boolean(),
          async (writes, endings, idleOpen) => {
            const stored = async () => {
              const { rows } = await writers[0]!.query('SELECT sound_seq, count FROM sound_downloads');
              return new Map(
                (rows as Array<{ sound_seq: number; count: number | string }>).map((row) => [
                  Number(row.sound_seq),
                  Number(row.count),
                ]),
              );
            };
            const before = await stored();
            // Older than every count of the round: a transaction with an id that writes none.
            let idleId: number | null = null;
            if (idleOpen) {
              await idle.query('BEGIN');
              idleId = Number((await idle.query('SELECT CAST(pg_current_xact_id() AS text) AS id')).rows[0].id);
            }
            let cursor = await counts.cursorNow();
            const seen = new Map<number, number>();
            const read = async () => {
              for (let more = true; more; ) {
                const page = await counts.changedSince(cursor, 3);
                for (const { soundSeq, count } of page.counts)
                  seen.set(soundSeq, Math.max(seen.get(soundSeq) ?? 0, count));
                cursor = page.cursor;
                more = page.more;
              }
            };
            const open = new Map<number, boolean>();
            try {
              for (const [n, write] of writes.entries()) {
                const client = writers[write.writer]!;
                if (!open.has(write.writer)) await client.query('BEGIN');
                // Each writer its own sound while open: open writers never wait for each other's rows.
                await client.query(COUNT, [seqs[write.writer]!]);
                open.set(write.writer, write.commit && (open.get(write.writer) ?? true));
                const ending = endings[n % endings.length]!;
                if (open.has(ending)) {
                  await writers[ending]!.query(open.get(ending) ? 'COMMIT' : 'ROLLBACK');
                  open.delete(ending);
                }
                await read();
              }
              for (const [writer, commit] of open) await writers[writer]!.query(commit ? 'COMMIT' : 'ROLLBACK');
              open.clear();
              await read();
              if (idleOpen) await idle.query('ROLLBACK');
              idleOpen = false;
              await read();
            } finally {
              // A failed round leaves no writer open to hold the next rounds back.
              for (const writer of open.keys()) await writers[writer]!.query('ROLLBACK');
              if (idleOpen) await idle.query('ROLLBACK');
            }
            // Every count the round changed was read as committed.
            const after = await stored();
            for (const seq of seqs)
              if ((after.get(seq) ?? 0) !== (before.get(seq) ?? 0))
                assert.equal(seen.get(seq), after.get(seq), `the count of sound ${seq}`);
            if (idleId !== null) assert.ok(!cursor.running.includes(idleId), 'an ended transaction is not waited for');
          },
        ),
        { numRuns: 25 },
      );
    },
  );
});
