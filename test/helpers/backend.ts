import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * The backends a test run uses. By default every test server and command works on SQLite in its
 * own data folder. With DATABASE_URL set (PostgreSQL) each data folder gets a schema of its own in
 * that database, so tests stay as separate as their SQLite files are; with REDIS_URL the quota
 * counters go to Redis (their keys hold account ids, which no two tests share).
 */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/** The environment that points a server or command for `dataDir` at this run's backends. */
export function backendEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  if (process.env.DATABASE_URL) env.DATABASE_URL = schemaUrl(process.env.DATABASE_URL, schemaOf(dataDir));
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  return env;
}

/** Makes the data folder's schema (PostgreSQL only); a restart over the same folder finds it again. */
export async function prepareBackend(dataDir: string): Promise<void> {
  if (process.env.DATABASE_URL) await inDatabase(`CREATE SCHEMA IF NOT EXISTS ${schemaOf(dataDir)}`);
}

/** Drops the data folder's schema with everything in it (PostgreSQL only). */
export async function removeBackend(dataDir: string): Promise<void> {
  if (process.env.DATABASE_URL) await inDatabase(`DROP SCHEMA IF EXISTS ${schemaOf(dataDir)} CASCADE`);
}

function schemaOf(dataDir: string): string {
  return `test_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
}

function schemaUrl(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}

async function inDatabase(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** For a command run with SOUND_CATALOG_DATA in `env`: that folder's backends, ready to use. */
export async function backendOf(env: Record<string, string>): Promise<Record<string, string>> {
  const dataDir = env.SOUND_CATALOG_DATA;
  if (!dataDir) return {};
  await prepareBackend(dataDir);
  return backendEnv(dataDir);
}
