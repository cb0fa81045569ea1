import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { SECRET_MIN_LENGTH } from './secret-length.ts';

export { ConfigError };

/** The environment, read once here and nowhere else (docs/operations.md, "Settings", lists every variable). */
const environmentSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    SOUND_CATALOG_DATA: z.string().min(1).default('./data'),
    // Answers write URLs unescaped (api/serializer.ts): none may hold what JSON escapes.
    PUBLIC_URL: z
      .url()
      .refine(
        (value) => !/["\\\u0000-\u001f\u007f]/.test(value),
        'PUBLIC_URL must not hold quotes, backslashes or control characters',
      )
      .optional(),
    SIGNING_SECRET: z
      .string()
      .optional()
      .refine(
        (value) => value === undefined || value.split(',').every((secret) => secret.length >= SECRET_MIN_LENGTH),
        `each comma-separated secret must be at least ${SECRET_MIN_LENGTH} characters, 32 random bytes (make one ` +
          `with: openssl rand -base64 32)`,
      ),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres://')
      .optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis://')
      .optional(),
    SOUND_CATALOG_DEMO: z.enum(['0', '1']).default('1'),
    SOUND_CATALOG_DEMO_COUNT: z.coerce.number().int().min(1).max(100_000).default(1000),
    SOUND_CATALOG_DEMO_RECORDINGS: z.coerce.number().int().min(0).max(100_000).default(1000),
    SOUND_CATALOG_MIGRATE: z.enum(['0', '1']).default('1'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: z.string().trim().optional().transform(parseTrustProxy),
    MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    METRICS_PORT: z.coerce
      .number({ message: 'must be a port number (0 to 65535)' })
      .int('must be a port number (0 to 65535)')
      .min(0, 'must be a port number (0 to 65535)')
      .max(65535, 'must be a port number (0 to 65535)')
      .optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    RENDITIONS_MAX_BYTES: z.coerce
      .number({ message: 'must be a whole number of bytes' })
      .int('must be a whole number of bytes')
      .min(1, 'must be at least 1 byte')
      .max(Number.MAX_SAFE_INTEGER)
      .default(2 * 1024 ** 3),
    RENDITIONS_CONCURRENCY: z.coerce
      .number({ message: 'must be a whole number of renditions made at once' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(256, 'must be at most 256')
      .default(Math.max(1, Math.floor(availableParallelism() / 2))),
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be an S3 bucket name (3 to 63 lowercase letters, digits, dots and hyphens)',
      )
      .optional(),
    S3_ENDPOINT: z.url({ message: 'must be a URL such as https://s3.example.com' }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
    S3_PREFIX: z.string().regex(/^[^/]/, 'must not start with /').optional(),
    // The AWS SDK's own names: read here like every setting; without them the SDK's chain looks
    // further (profile, SSO, instance role).
    AWS_ACCESS_KEY_ID: z.string().optional(),
    AWS_SECRET_ACCESS_KEY: z.string().optional(),
    AWS_SESSION_TOKEN: z.string().optional(),
    MEDIA_REDIRECT: z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
  })
  .refine((e) => !(e.METRICS_PORT && e.METRICS_PORT === e.PORT && e.METRICS_HOST === e.HOST), {
    path: ['METRICS_PORT'],
    message: "must differ from PORT: /metrics has a listener of its own, never the API's",
  })
  .refine((e) => e.S3_BUCKET !== undefined || (e.S3_ENDPOINT === undefined && e.S3_PREFIX === undefined), {
    path: ['S3_BUCKET'],
    message: 'must be set when S3_ENDPOINT or S3_PREFIX is: media stays in the data folder without a bucket',
  })
  .refine((e) => (e.AWS_ACCESS_KEY_ID === undefined) === (e.AWS_SECRET_ACCESS_KEY === undefined), {
    path: ['AWS_SECRET_ACCESS_KEY'],
    message: 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together',
  })
  .refine((e) => e.MEDIA_REDIRECT === 'false' || e.S3_BUCKET !== undefined, {
    path: ['MEDIA_REDIRECT'],
    message: 'needs S3_BUCKET: only a bucket can answer a redirected media URL',
  });

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Base of every absolute link and signed URL; null means "derive from the address we listen on". */
  publicUrl: string | null;
  /**
   * Newest first: the first signs, all verify, so an old secret keeps its URLs alive until they
   * expire. Null when SIGNING_SECRET is unset: the wiring then uses one generated once into the database (secrets.ts).
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
  /**
   * Whom to believe about the client's address in X-Forwarded-For: false (nobody: the address is
   * the socket's), a hop count (that many proxies stand in front), or the proxies' addresses and
   * CIDR ranges. app.ts hands it to Fastify's `trustProxy`.
   */
  trustProxy: TrustProxy;
  /** Open connections the server accepts at once; more are closed as they arrive (api/limits.ts). */
  maxConnections: number;
  /**
   * Where `serve` answers Prometheus at /metrics (metrics/), on a listener of its own; null (the
   * default) for no metrics listener at all. Port 0 picks a free port, logged like the API's.
   */
  metrics: { port: number; host: string } | null;
  /** At most this many bytes of renditions are kept; the least recently served go first (media/renditions.ts). */
  renditionsMaxBytes: number;
  /** Renditions made at once, each on a worker thread; more wait, up to a bound, then are refused with 503. */
  renditionsConcurrency: number;
  /** The bucket every media file lives in; null keeps them in the data folder (media/folder-store.ts). */
  s3: S3Config | null;
  /** A signed media URL answers 302 to a presigned URL of the bucket instead of streaming the bytes itself. */
  mediaRedirect: boolean;
}

/** Where the bucket is, and the keys when AWS_ACCESS_KEY_ID is set (else the AWS SDK's standard chain finds them). */
export interface S3Config {
  bucket: string;
  /** Null for AWS itself; a compatible store's URL otherwise (MinIO, Ceph RGW, R2, Swift). */
  endpoint: string | null;
  region: string;
  forcePathStyle: boolean;
  /** Put before every key: '' or a folder ending in '/'. */
  prefix: string;
  /** Keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; null lets the AWS SDK's default chain find them. */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
}

export type TrustProxy = false | number | string[];

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
    trustProxy: e.TRUST_PROXY,
    maxConnections: e.MAX_CONNECTIONS,
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    renditionsMaxBytes: e.RENDITIONS_MAX_BYTES,
    renditionsConcurrency: e.RENDITIONS_CONCURRENCY,
    s3:
      e.S3_BUCKET === undefined
        ? null
        : {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT ?? null,
            region: e.S3_REGION,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
            prefix: e.S3_PREFIX === undefined ? '' : e.S3_PREFIX.replace(/\/*$/, '/'),
            credentials:
              e.AWS_ACCESS_KEY_ID === undefined || e.AWS_SECRET_ACCESS_KEY === undefined
                ? null
                : {
                    accessKeyId: e.AWS_ACCESS_KEY_ID,
                    secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
                    ...(e.AWS_SESSION_TOKEN && { sessionToken: e.AWS_SESSION_TOKEN }),
                  },
          },
    mediaRedirect: e.MEDIA_REDIRECT === 'true',
  };
}

function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
}

/**
 * Names proxy-addr (Fastify's) knows for whole ranges: 127.0.0.0/8 and ::1, 169.254/16 and
 * fe80::/10, private ranges.
 */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset or 0 is off; a whole number is a hop count; anything else a comma list of
 * addresses, CIDR ranges or named ranges. `true` is refused: it would believe an X-Forwarded-For
 * that any client can write, so anyone could pick the address sign-in throttling counts them by.
 */
function parseTrustProxy(value: string | undefined, context: z.RefinementCtx): TrustProxy {
  if (value === undefined || value === '0') return false;
  if (/^\d{1,3}$/.test(value)) return Number(value);
  if (value.toLowerCase() === 'true') {
    context.addIssue({
      code: 'custom',
      message:
        'true would believe X-Forwarded-For from any client; give the number of proxies in front (e.g. 1) or ' +
        'their addresses',
    });
    return z.NEVER;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    context.addIssue({
      code: 'custom',
      message: `"${wrong}" is not a hop count, an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
    });
    return z.NEVER;
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
