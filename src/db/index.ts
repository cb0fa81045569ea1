import path from 'node:path';
import {
  Migrator,
  sql,
  type DatabaseIntrospector,
  type Kysely,
  type Migration as KyselyMigration,
  type MigrationResultSet,
  type TableMetadata,
} from 'kysely';
import { ConfigError } from '../config-error.ts';
import { openPostgres } from './dialects/postgres.ts';
import { openSqlite } from './dialects/sqlite.ts';
import type { DatabaseHandle, Db } from './dialects/types.ts';
import { migrations } from './migrations/index.ts';

export type { DatabaseHandle, Db, PoolFigures } from './dialects/types.ts';

export interface DatabaseOptions {
  dataDir: string;
  /** postgres://... puts everything on PostgreSQL; otherwise SQLite in the data folder. */
  databaseUrl?: string | null;
  /**
   * Bring the schema up to date on opening (the default). When false, a schema that is behind
   * is refused instead: several instances, say, with `sound-catalog migrate` run once per release.
   */
  migrate?: boolean;
}

/**
 * Opens the configured database and brings its schema up to date (with `migrate: false`, refuses
 * one that is behind).
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return openAndPrepare(
    options,
    options.migrate === false ? requireCurrentSchema : async (handle) => void (await migrate(handle)),
  );
}

/** Opens the configured database for `sound-catalog migrate`, which reports what it applied. */
export async function openForMigration(
  options: DatabaseOptions,
): Promise<{ handle: DatabaseHandle; applied: string[] }> {
  let applied: string[] = [];
  const handle = await openAndPrepare(options, async (opened) => {
    applied = await migrate(opened);
  });
  return { handle, applied };
}

async function openAndPrepare(
  options: DatabaseOptions,
  prepare: (handle: DatabaseHandle) => Promise<void>,
): Promise<DatabaseHandle> {
  const handle = options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openSqlite(path.join(options.dataDir, 'catalog.sqlite'));
  try {
    if (options.databaseUrl) await reach(handle);
    await prepare(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

async function reach(handle: DatabaseHandle): Promise<void> {
  try {
    await sql`SELECT 1`.execute(handle.db);
  } catch (error) {
    throw new Error(`PostgreSQL at DATABASE_URL does not answer: ${(error as Error).message}`);
  }
}

/**
 * Applies the migrations not applied yet (up to and with `upTo`, when given: a test making a
 * database as an earlier release left it); returns their names, oldest first.
 */
export async function migrate(handle: DatabaseHandle, upTo?: string): Promise<string[]> {
  const migrator = await migratorOf(handle);
  const run = () => (upTo === undefined ? migrator.migrateToLatest() : migrator.migrateTo(upTo));
  // PostgreSQL's are in one transaction already: Kysely knows its DDL is transactional.
  const outcome = handle.dialect.name === 'postgres' ? await run() : await inOneTransaction(handle.db, migrator, run);
  const { error, results = [] } = outcome;
  if (error) throw error;
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * Kysely's migrator runs SQLite's migrations outside any transaction (it takes SQLite's DDL as
 * not transactional, which it is): a process killed between two statements of a migration left
 * half of it, and every later start failed on it ("table sounds already exists"). In one
 * transaction, a kill leaves the schema as it was. IMMEDIATE takes the write lock before the
 * migrator reads what is applied, so a second process starting on the file waits and then finds
 * nothing to do; it is taken only when something is to be applied.
 */
async function inOneTransaction(db: Db, migrator: Migrator, run: () => Promise<MigrationResultSet>) {
  if ((await migrator.getMigrations()).every((migration) => migration.executedAt !== undefined)) return run();
  await sql`BEGIN IMMEDIATE`.execute(db);
  let outcome: MigrationResultSet;
  try {
    outcome = await run();
  } catch (error) {
    await sql`ROLLBACK`.execute(db);
    throw error;
  }
  await sql.raw(outcome.error ? 'ROLLBACK' : 'COMMIT').execute(db);
  return outcome;
}

async function requireCurrentSchema(handle: DatabaseHandle): Promise<void> {
  const pending = (await (await migratorOf(handle)).getMigrations()).filter(
    (migration) => migration.executedAt === undefined,
  );
  if (pending.length > 0) {
    throw new ConfigError(
      `the database schema is behind (${pending.map((m) => m.name).join(', ')} not applied): run "sound-catalog ` +
        `migrate", or unset SOUND_CATALOG_MIGRATE=0`,
    );
  }
}

async function migratorOf(handle: DatabaseHandle): Promise<Migrator> {
  const provider = {
    async getMigrations(): Promise<Record<string, KyselyMigration>> {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, migration]) => [
          name,
          // biome-ignore lint/suspicious/noExplicitAny: each migration sees the schema of its own time.
          { up: (db: Kysely<any>) => migration.up(db, handle.dialect.name) },
        ]),
      );
    },
  };
  if (handle.dialect.name !== 'postgres') return new Migrator({ db: handle.db, provider });
  // The migrations' own tables go in the schema everything else goes in (the first of search_path).
  const schema = await ownSchema(handle.db);
  return new Migrator({ db: seeingOnlySchema(handle.db, schema), provider, migrationTableSchema: schema });
}

/** The schema unqualified names go to: the first of search_path that exists. */
async function ownSchema(db: Db): Promise<string> {
  const { schema, searchPath } = (
    await sql<{ schema: string | null; searchPath: string }>`
    SELECT current_schema() AS schema, current_setting('search_path') AS "searchPath"`.execute(db)
  ).rows[0]!;
  // None exists: PostgreSQL has nowhere to create a table, and the migrator would take another
  // schema's migration table for ours.
  if (!schema)
    throw new ConfigError(
      `no schema of the search_path "${searchPath}" exists in the database at DATABASE_URL: create it, or name ` +
        `one that does`,
    );
  return schema;
}

/**
 * The database as the migrator should see it: with the tables of our schema only. Kysely's own
 * introspection lists every table of every schema, and PostgreSQL looks each one's columns up by
 * name while it lists them, without a lock: a schema, table or column that someone else drops
 * meanwhile (a test cleaning up, another application's migration) fails the listing with
 * "schema / relation / column ... does not exist", naming a table that is not ours, and the start
 * with it. The migrator only asks whether its two tables are there.
 */
function seeingOnlySchema(db: Db, schema: string): Db {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{
      name: string;
    }>`SELECT tablename AS name FROM pg_catalog.pg_tables WHERE schemaname = ${schema}`.execute(db);
    return rows.map(({ name }) => ({ name, schema, isView: false, columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    // ownSchema found it: it exists.
    getSchemas: async () => [{ name: schema }],
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
  // Kysely keeps its state in private fields, which only the instance itself may read: every
  // method runs on the real instance.
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
