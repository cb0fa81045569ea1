import path from 'node:path';
import { z } from 'zod';

/** The environment, read once here and nowhere else (operator-contract.md, "Settings"). */
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  SOUND_CATALOG_DATA: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url().optional(),
  SIGNING_SECRET: z.string().min(16, 'SIGNING_SECRET must be at least 16 characters').optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres://').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'REDIS_URL must start with redis://').optional(),
  SOUND_CATALOG_DEMO: z.enum(['0', '1']).default('1'),
  SOUND_CATALOG_DEMO_COUNT: z.coerce.number().int().min(1).max(100_000).default(1000),
  SOUND_CATALOG_DEMO_RECORDINGS: z.coerce.number().int().min(0).max(100_000).default(1000),
  SOUND_CATALOG_MIGRATE: z.enum(['0', '1']).default('1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Base of every absolute link and signed URL; null means "derive from the address we listen on". */
  publicUrl: string | null;
  /**
   * Newest first: the first signs, all verify, so an old secret keeps its URLs alive until they
   * expire. Null when SIGNING_SECRET is unset: the wiring then uses one generated into the data folder.
   */
  signingSecrets: string[] | null;
  databaseUrl: string | null;
  redisUrl: string | null;
  demo: boolean;
  /** How many sounds the first start synthesizes into an empty catalog. */
  demoCount: number;
  /** At most how many real recordings (ingest/demo-recordings.ts) the first start adds; 0 for none. */
  demoRecordings: number;
  /** Whether opening the database brings its schema up to date (else `sound-catalog migrate` does). */
  migrate: boolean;
  logLevel: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new ConfigError(`invalid setting ${String(first.path[0])}: ${first.message}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.SOUND_CATALOG_DATA);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : null,
    signingSecrets: e.SIGNING_SECRET ? e.SIGNING_SECRET.split(',') : null,
    databaseUrl: e.DATABASE_URL ?? null,
    redisUrl: e.REDIS_URL ?? null,
    demo: e.SOUND_CATALOG_DEMO === '1',
    demoCount: e.SOUND_CATALOG_DEMO_COUNT,
    demoRecordings: e.SOUND_CATALOG_DEMO_RECORDINGS,
    migrate: e.SOUND_CATALOG_MIGRATE === '1',
    logLevel: e.LOG_LEVEL,
  };
}

function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
}
