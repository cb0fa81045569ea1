/**
 * What each backend adds to one request, in process:  node --import tsx bench/backends.ts
 *
 * The two steps every API request takes before its handler: reading the caller's key (with its
 * account and plan) and counting one request of the daily quota. Each is timed alone, one call at
 * a time (no concurrency: the latency a request pays, not throughput), 5,000 calls after 1,000 of
 * warm-up, on SQLite with the in-process counter and on PostgreSQL with the Redis counter.
 * Needs PostgreSQL and Redis (DATABASE_URL and REDIS_URL, or the local defaults).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/wiring.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCHEMA = `bench_backends_${process.pid}`;
const CALLS = 5000;

const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-backends-'));
await runSql(`CREATE SCHEMA ${SCHEMA}`);
const postgresUrl = new URL(DATABASE_URL);
postgresUrl.searchParams.set('options', `-c search_path=${SCHEMA}`);

const backends: Array<[string, Record<string, string>]> = [
  ['SQLite + in-process counter', {}],
  ['PostgreSQL + Redis', { DATABASE_URL: postgresUrl.href, REDIS_URL }],
];
console.log('| backend | key read: p50 us | p99 us | quota count: p50 us | p99 us |');
console.log('|---|---|---|---|---|');
for (const [name, env] of backends) {
  const services = await createServices(loadConfig({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', ...env }));
  const account = await services.accounts.createAccount(`backends-${Date.now()}@example.com`, 'enterprise');
  const { key } = await services.accounts.createKey(account.id, 'bench');
  const read = await timeCalls(() => services.accounts.authenticate(key));
  const now = Date.now();
  const count = await timeCalls(() => services.quota.consume(account.id, 'bench', 10_000_000, now));
  console.log(`| ${name} | ${read.p50} | ${read.p99} | ${count.p50} | ${count.p99} |`);
  await services.close();
}
await runSql(`DROP SCHEMA ${SCHEMA} CASCADE`);
await rm(dataDir, { recursive: true, force: true });

async function timeCalls(call: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 1000; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  times.sort((a, b) => a - b);
  return { p50: Math.round(times[Math.floor(CALLS / 2)]!), p99: Math.round(times[Math.floor(CALLS * 0.99)]!) };
}

async function runSql(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}
