import { createHash } from 'node:crypto';
import path from 'node:path';
import SQLite from '../../src/db/dialects/better-sqlite3.js';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { loadConfig, type Config } from '../../src/config.ts';
import { openPostgres } from '../../src/db/dialects/postgres.ts';
import { openSqlite } from '../../src/db/dialects/sqlite.ts';
import type { DatabaseHandle } from '../../src/db/dialects/types.ts';
import { S3_SERVER, s3Client } from './s3.ts';

/**
 * The backends a test run uses. By default every test server and command works on SQLite in its
 * own data folder. With DATABASE_URL set (PostgreSQL) each data folder gets a schema of its own in
 * that database, so tests stay as separate as their SQLite files are; with REDIS_URL the quota
 * counters go to Redis (their keys hold account ids, which no two tests share).
 */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * With TEST_MEDIA=s3 every data folder's media goes to a bucket of its own on the test S3 server
 * (helpers/s3.ts) instead of the folder: any test file runs on S3 as it is.
 */
export const onS3 = process.env.TEST_MEDIA === 's3';

/** The environment that points a server or command for `dataDir` at this run's backends. */
export function backendEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  if (process.env.DATABASE_URL) env.DATABASE_URL = schemaUrl(process.env.DATABASE_URL, schemaOf(dataDir));
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  if (onS3) Object.assign(env, bucketEnv(bucketOf(dataDir)));
  return env;
}

/** The settings that point an instance at a bucket of the test S3 server, as an operator would set them. */
export function bucketEnv(bucket: string): Record<string, string> {
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: S3_SERVER.endpoint,
    S3_REGION: S3_SERVER.region,
    S3_FORCE_PATH_STYLE: String(S3_SERVER.forcePathStyle),
    AWS_ACCESS_KEY_ID: S3_SERVER.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3_SERVER.secretAccessKey,
    // On Node.js 20 (past its end of life) the SDK warns over several lines of standard error, which tests of one-line
    // errors count.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

/** Makes the data folder's schema (PostgreSQL only); a restart over the same folder finds it again. */
export async function prepareBackend(dataDir: string, databaseUrl = process.env.DATABASE_URL): Promise<void> {
  if (databaseUrl) await inDatabase(databaseUrl, `CREATE SCHEMA IF NOT EXISTS ${schemaOf(dataDir)}`);
  if (onS3) await createBucket(bucketOf(dataDir));
}

/** Drops the data folder's schema with everything in it (PostgreSQL only). */
/** `dataDir`'s database, its backend prepared (its schema on PostgreSQL, else its SQLite file), not migrated. */
export async function openBackendDatabase(dataDir: string): Promise<DatabaseHandle> {
  await prepareBackend(dataDir);
  const url = backendEnv(dataDir).DATABASE_URL;
  return url ? openPostgres(url) : openSqlite(path.join(dataDir, 'catalog.sqlite'));
}

export async function removeBackend(dataDir: string, databaseUrl = process.env.DATABASE_URL): Promise<void> {
  if (databaseUrl) await inDatabase(databaseUrl, `DROP SCHEMA IF EXISTS ${schemaOf(dataDir)} CASCADE`);
  if (onS3) await removeBucket(bucketOf(dataDir));
}

/** The data folder's bucket: a restart over the same folder finds it again. */
function bucketOf(dataDir: string): string {
  return `sc-test-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
}

/** Makes the bucket if it is not there yet (a restart over the same data folder finds its own). */
export async function createBucket(bucket: string): Promise<void> {
  const client = s3Client();
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if ((error as Error).name !== 'BucketAlreadyOwnedByYou' && (error as Error).name !== 'BucketAlreadyExists')
      throw error;
  } finally {
    client.destroy();
  }
}

/** Deletes every object of the bucket, then the bucket; a bucket already gone is fine. */
export async function removeBucket(bucket: string): Promise<void> {
  const client = s3Client();
  try {
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const objects = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
      if (objects.length === 0) break;
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if ((error as Error).name !== 'NoSuchBucket' && (error as Error).name !== 'NotFound') throw error;
  } finally {
    client.destroy();
  }
}

/**
 * The tests of several instances and of outages always run on PostgreSQL and Redis: this run's if
 * it has them, otherwise the local servers (test/README.md).
 */
export const SHARED = {
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};

/** The environment of an instance on the shared backends, for a data folder (with its schema made). */
export async function sharedEnv(dataDir: string): Promise<Record<string, string>> {
  await prepareBackend(dataDir, SHARED.databaseUrl);
  return {
    SOUND_CATALOG_DATA: dataDir,
    SOUND_CATALOG_DEMO: '0',
    DATABASE_URL: schemaUrl(SHARED.databaseUrl, schemaOf(dataDir)),
    REDIS_URL: SHARED.redisUrl,
  };
}

/**
 * Why the shared backends cannot be used, as a skip reason, or false when they answer. In CI
 * (CI=true) a missing server fails the run instead: these tests never pass by not running there.
 */
export async function sharedBackendsMissing(): Promise<string | false> {
  const problems: string[] = [];
  try {
    await inDatabase(SHARED.databaseUrl, 'SELECT 1');
  } catch (error) {
    problems.push(`PostgreSQL at ${SHARED.databaseUrl}: ${(error as Error).message}`);
  }
  const redis = new Redis(SHARED.redisUrl, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    problems.push(`Redis at ${SHARED.redisUrl}: ${(error as Error).message}`);
  } finally {
    redis.disconnect();
  }
  if (problems.length === 0) return false;
  if (process.env.CI === 'true') throw new Error(`the scale-out tests need their servers: ${problems.join('; ')}`);
  return `no server to test against (${problems.join('; ')})`;
}

function schemaOf(dataDir: string): string {
  return `test_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
}

function schemaUrl(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}

async function inDatabase(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
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

/** Settings for services of a test's own (another "instance" on a data folder), on this run's backends. */
export async function configFor(dataDir: string, env: Record<string, string> = {}): Promise<Config> {
  await prepareBackend(dataDir);
  return loadConfig({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', ...backendEnv(dataDir), ...env });
}

/** A plain connection of its own to a data folder's database, as another program would open one. */
export interface OtherConnection {
  /** Runs one statement; `?` marks each parameter, on either engine. */
  run(statement: string, ...parameters: unknown[]): Promise<void>;
  all<T>(statement: string, ...parameters: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function otherConnection(dataDir: string, options: { readonly?: boolean } = {}): Promise<OtherConnection> {
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: backendEnv(dataDir).DATABASE_URL });
    await client.connect();
    const numbered = (statement: string) => {
      let n = 0;
      return statement.replace(/\?/g, () => `$${++n}`);
    };
    return {
      run: async (statement, ...parameters) => void (await client.query(numbered(statement), parameters)),
      all: async <T>(statement: string, ...parameters: unknown[]) =>
        (await client.query(numbered(statement), parameters)).rows as T[],
      close: () => client.end(),
    };
  }
  const db = new SQLite(path.join(dataDir, 'catalog.sqlite'), {
    readonly: options.readonly ?? false,
    fileMustExist: true,
  });
  return {
    run: async (statement, ...parameters) => void db.prepare(statement).run(...parameters),
    all: async <T>(statement: string, ...parameters: unknown[]) => db.prepare(statement).all(...parameters) as T[],
    close: async () => void db.close(),
  };
}
