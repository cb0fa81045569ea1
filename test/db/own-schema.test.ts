import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { ConfigError } from '../../src/config.ts';
import { openDatabase } from '../../src/db/index.ts';
import { removeBackend, SHARED, sharedBackendsMissing, sharedEnv } from '../helpers/backend.ts';

// Always on PostgreSQL, as the scale-out tests: on SQLite there are no other schemas.
const skip = await sharedBackendsMissing();

/**
 * Another user of the database changing its own schema over and over until `stop()`: a table like
 * ours made, a column added and dropped, then the whole schema dropped.
 */
async function churnSchema(databaseUrl: string): Promise<{ stop(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const schema = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema;
  const columns = Array.from({ length: 40 }, (_, n) => `c${n} text`).join(', ');
  let stopping = false;
  const running = (async () => {
    while (!stopping) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}; CREATE TABLE ${schema}.sounds (${columns})`);
      for (let n = 0; n < 5; n++) {
        await client.query(`ALTER TABLE ${schema}.sounds ADD COLUMN content_hash text`);
        await client.query(`ALTER TABLE ${schema}.sounds DROP COLUMN content_hash`);
      }
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  })();
  return {
    async stop() {
      stopping = true;
      try {
        await running;
      } finally {
        await client.end();
      }
    },
  };
}

describe('the database on PostgreSQL is prepared in its own schema only', { skip }, () => {
  test(
    "db.own-schema: other schemas' tables and columns " + 'dropped while the database opens do not fail the opening',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-own-schema-'));
      const otherDir = await mkdtemp(path.join(tmpdir(), 'sc-other-schema-'));
      try {
        const { DATABASE_URL: databaseUrl } = await sharedEnv(dataDir);
        await (await openDatabase({ dataDir, databaseUrl })).close();
        const other = await churnSchema((await sharedEnv(otherDir)).DATABASE_URL!);
        const failures: string[] = [];
        try {
          // Both ways of opening: migrating, and checking that nothing is left to migrate.
          for (let n = 0; n < 30; n++) {
            try {
              await (await openDatabase({ dataDir, databaseUrl, migrate: n % 2 === 0 })).close();
            } catch (error) {
              failures.push((error as Error).message);
            }
          }
        } finally {
          await other.stop();
        }
        assert.deepEqual(failures, []);
      } finally {
        await removeBackend(dataDir, SHARED.databaseUrl);
        await removeBackend(otherDir, SHARED.databaseUrl);
        await rm(dataDir, { recursive: true, force: true });
        await rm(otherDir, { recursive: true, force: true });
      }
    },
  );

  test(
    'db.own-schema.missing: a search_path naming no schema ' + 'that exists is refused, and the refusal names it',
    async () => {
      const url = new URL(SHARED.databaseUrl);
      url.searchParams.set('options', '-c search_path=sc_never_made');
      await assert.rejects(openDatabase({ dataDir: tmpdir(), databaseUrl: url.href }), (error) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.match(error.message, /no schema of the search_path "sc_never_made" exists/);
        return true;
      });
    },
  );
});
