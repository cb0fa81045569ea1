import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect, type Migration as KyselyMigration } from 'kysely';
import pg from 'pg';
import { ConfigError } from '../config.ts';
import { postgresDialect } from './dialects/postgres.ts';
import { sqliteDialect } from './dialects/sqlite.ts';
import type { SqlDialect } from './dialects/types.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: SqlDialect;
  close(): Promise<void>;
}

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

/** Opens the configured database and brings its schema up to date (with `migrate: false`, refuses one that is behind). */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return openAndPrepare(options, options.migrate === false ? requireCurrentSchema : async (handle) => void await migrate(handle));
}

/** Opens the configured database for `sound-catalog migrate`, which reports what it applied. */
export async function openForMigration(options: DatabaseOptions): Promise<{ handle: DatabaseHandle; applied: string[] }> {
  let applied: string[] = [];
  const handle = await openAndPrepare(options, async (opened) => {
    applied = await migrate(opened);
  });
  return { handle, applied };
}

async function openAndPrepare(options: DatabaseOptions, prepare: (handle: DatabaseHandle) => Promise<void>): Promise<DatabaseHandle> {
  const handle = options.databaseUrl ? openPostgres(options.databaseUrl) : openSqlite(path.join(options.dataDir, 'catalog.sqlite'));
  try {
    if (options.databaseUrl) await reach(handle);
    await retryingOtherSchemasDropped(() => prepare(handle));
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * Kysely's migrator looks at the tables of every schema in the database. A schema that someone
 * else drops during that look fails the query (PostgreSQL: 3F000, "schema ... does not exist"),
 * though it has nothing to do with ours: look again.
 */
async function retryingOtherSchemasDropped(prepare: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await prepare();
    } catch (error) {
      if ((error as { code?: string }).code !== '3F000' || attempt === 5) throw error;
    }
  }
}

async function reach(handle: DatabaseHandle): Promise<void> {
  try {
    await sql`SELECT 1`.execute(handle.db);
  } catch (error) {
    throw new Error(`PostgreSQL at DATABASE_URL does not answer: ${(error as Error).message}`);
  }
}

/** How long a request may wait for PostgreSQL before it fails: never hang while it is away. */
const CONNECT_TIMEOUT_MS = 3000;
const QUERY_TIMEOUT_MS = 10_000;

function openPostgres(url: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    // Counts and the change log's numbers are int8; every one of ours fits a JavaScript number.
    types: { getTypeParser: (oid: number, format?: string) => (oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text')) },
  });
  // A connection the server drops (a restart, say) is an error event: on the pool while the
  // connection is idle, on the connection while a query holds it. That query fails by itself
  // and the pool throws the connection away when it comes back; unheard, the event would end
  // the process. The next query opens a new connection.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: postgresDialect, close: () => db.destroy() };
}

function openSqlite(file: string): DatabaseHandle {
  mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only a power cut can lose the last commits.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  return { db, dialect: sqliteDialect, close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; preparing costs more than running most of ours. Queries are
 * built from a small set of shapes with bound values, so caching statements by SQL text pays.
 */
function withStatementCache(connection: SQLite.Database, capacity = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        // Re-insert to keep the map in least-recently-used order.
        cache.delete(sql);
      } else {
        statement = connection.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/** Applies the migrations not applied yet; returns their names, oldest first. */
export async function migrate(handle: DatabaseHandle): Promise<string[]> {
  const { error, results = [] } = await (await migratorOf(handle)).migrateToLatest();
  if (error) throw error;
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

async function requireCurrentSchema(handle: DatabaseHandle): Promise<void> {
  const pending = (await (await migratorOf(handle)).getMigrations()).filter((migration) => migration.executedAt === undefined);
  if (pending.length > 0) {
    throw new ConfigError(`the database schema is behind (${pending.map((m) => m.name).join(', ')} not applied): run "sound-catalog migrate", or unset SOUND_CATALOG_MIGRATE=0`);
  }
}

async function migratorOf(handle: DatabaseHandle): Promise<Migrator> {
  const provider = {
    async getMigrations(): Promise<Record<string, KyselyMigration>> {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, migration]) => [name, { up: (db: Kysely<any>) => migration.up(db, handle.dialect) }]),
      );
    },
  };
  // On PostgreSQL the migrations' own tables go in the schema everything else goes in (the first
  // of search_path); left to itself Kysely looks for them in any schema.
  const schema = handle.dialect.name === 'postgres'
    ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(handle.db)).rows[0]?.schema
    : undefined;
  return new Migrator({ db: handle.db, provider, ...(schema && { migrationTableSchema: schema }) });
}
