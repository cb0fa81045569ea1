/**
 * Scale-out benchmark:  node --import tsx bench/scale.ts [SOUNDS]   (default 100000)
 *
 * One catalog (bench/fill-catalog.ts, copied into a PostgreSQL schema of its own) served three
 * ways, each measured in turn ROUNDS times: one instance on SQLite (the embedded default), one
 * instance on PostgreSQL + Redis, two instances on PostgreSQL + Redis (25 connections to each).
 * Two mixes: the realistic search mix of bench/api.ts, and a quota-heavy mix (the cheapest
 * counted request, `popular?limit=1`, over 200 keys of 100 accounts), where the key read and
 * the quota count are most of the work. Besides the rate and latency, the CPU time each process
 * spent (server instances, PostgreSQL's processes, Redis) is read from /proc before and after,
 * and given per request: on a 2-core machine that also runs the load generator, the CPU per
 * request is what says how far more instances on more cores would go.
 *
 * Needs PostgreSQL and Redis (DATABASE_URL and REDIS_URL, or the local defaults).
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import SQLite from '../src/db/dialects/better-sqlite3.js';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/wiring.ts';
import { fillCatalog } from './fill-catalog.ts';
import { cpuByPid, createBenchKeys, pidsOf, soundIds } from './processes.ts';
import { generator, queryMix } from './query-mix.ts';
import { heapArguments, startChild } from './server-process.ts';

const SOUNDS = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const root = path.resolve(import.meta.dirname, '..');
const SCHEMA = `bench_scale_${process.pid}`;
/**
 * Share of downloads in the realistic mix (BENCH_DOWNLOADS, default 0.1); setups to run (BENCH_SETUPS, e.g.
 * "sqlite,postgres1").
 */
const DOWNLOADS = Number(process.env.BENCH_DOWNLOADS ?? 0.1);
const ONLY = process.env.BENCH_SETUPS?.split(',');

execFileSync(process.execPath, [path.join(root, 'scripts/build.js')], { stdio: 'inherit' });

const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-scale-'));
await fillCatalog(dataDir, SOUNDS);
const postgresUrl = withSchema(DATABASE_URL, SCHEMA);
await runSql(DATABASE_URL, `CREATE SCHEMA ${SCHEMA}`);
const copied = performance.now();
await copyCatalogToPostgres(dataDir, postgresUrl);
console.log(
  JSON.stringify({ sounds: SOUNDS, copyToPostgresSeconds: Math.round((performance.now() - copied) / 100) / 10 }),
);

const sqliteEnv = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', PORT: '0' };
const sharedEnv = { ...sqliteEnv, DATABASE_URL: postgresUrl, REDIS_URL };
const sqliteKeys = await createBenchKeys(sqliteEnv, 'scale');
const sharedKeys = await createBenchKeys(sharedEnv, 'scale');
const ids = soundIds(dataDir, 5000);
const serve = (env: Record<string, string>) =>
  startChild([...heapArguments(SOUNDS), path.join(root, 'bin/sound-catalog.js'), 'serve'], env);

const setups = [];
if (!ONLY || ONLY.includes('sqlite'))
  setups.push({ name: 'one instance, SQLite', servers: [await serve(sqliteEnv)], keys: sqliteKeys });
if (!ONLY || ONLY.includes('postgres1'))
  setups.push({ name: 'one instance, PostgreSQL + Redis', servers: [await serve(sharedEnv)], keys: sharedKeys });
if (!ONLY || ONLY.includes('postgres2'))
  setups.push({
    name: 'two instances, PostgreSQL + Redis',
    servers: [await serve(sharedEnv), await serve(sharedEnv)],
    keys: sharedKeys,
  });

const random = generator(7);
const mix = queryMix(random, 20_000);
let sent = 0;
const mixes: Array<{ name: string; next: (keys: string[]) => { path: string; headers: Record<string, string> } }> = [
  {
    name: `realistic mix (20,000 searches, Zipf, ${Math.round(DOWNLOADS * 100)}% downloads)`,
    next: (keys) => ({
      path: random.next() < DOWNLOADS ? `/api/v1/sounds/${random.zipf(ids)}/download` : random.zipf(mix),
      headers: { 'x-api-key': keys[sent++ % keys.length]! },
    }),
  },
  {
    name: 'quota-heavy (popular?limit=1, 200 keys)',
    next: (keys) => ({ path: '/api/v1/sounds/popular?limit=1', headers: { 'x-api-key': keys[sent++ % keys.length]! } }),
  },
];

interface Result {
  rps: number;
  p99: number;
  failures: number;
  cpuMsPerRequest: { servers: number; postgres: number; redis: number };
}
const results = new Map<string, Result[]>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const { name: mixName, next } of mixes) {
    for (const setup of setups) {
      const result = await measure(setup.servers, () => next(setup.keys));
      const key = `${mixName} | ${setup.name}`;
      results.set(key, [...(results.get(key) ?? []), result]);
      console.log(JSON.stringify({ round, mix: mixName, setup: setup.name, ...result }));
    }
  }
}

console.log(
  `\n${SOUNDS.toLocaleString('en')} sounds; ${ROUNDS} rounds of ` +
    `${DURATION_S} s, medians; ${CONNECTIONS} connections in all.\n`,
);
console.log('| mix | setup | req/s | p99 ms | CPU ms per request: servers | PostgreSQL | Redis | errors + non-2xx |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [key, runs] of results) {
  const m = (pick: (result: Result) => number) => median(runs.map(pick));
  console.log(
    `| ${key} | ${Math.round(m((r) => r.rps)).toLocaleString('en')} | ` +
      `${m((r) => r.p99)} | ${m((r) => r.cpuMsPerRequest.servers).toFixed(3)} ` +
      `| ${m((r) => r.cpuMsPerRequest.postgres).toFixed(3)} | ` +
      `${m((r) => r.cpuMsPerRequest.redis).toFixed(3)} | ${runs.reduce((sum, r) => sum + r.failures, 0)} |`,
  );
}

for (const setup of setups) for (const server of setup.servers) server.child.kill('SIGTERM');
await new Promise((resolve) => setTimeout(resolve, 500));
await runSql(DATABASE_URL, `DROP SCHEMA ${SCHEMA} CASCADE`);
await rm(dataDir, { recursive: true, force: true });

/** Load spread over the instances (connections split between them); CPU read around the main run. */
async function measure(
  servers: Array<{ child: ChildProcess; url: string }>,
  next: () => { path: string; headers: Record<string, string> },
): Promise<Result> {
  const load = (duration: number) =>
    Promise.all(
      servers.map((server) =>
        autocannon({
          url: server.url,
          connections: CONNECTIONS / servers.length,
          duration,
          requests: [{ method: 'GET', setupRequest: (request: autocannon.Request) => ({ ...request, ...next() }) }],
        }),
      ),
    );
  await load(1);
  const serverPids = servers.map((server) => server.child.pid!);
  // PostgreSQL starts a process per connection, and the pools open more under load: the processes
  // are looked up again afterwards, and one that was not there before started from nothing.
  const before = {
    servers: cpuByPid(serverPids),
    postgres: cpuByPid(pidsOf('postgres')),
    redis: cpuByPid(pidsOf('redis-server')),
  };
  const runs = await load(DURATION_S);
  const after = {
    servers: cpuByPid(serverPids),
    postgres: cpuByPid(pidsOf('postgres')),
    redis: cpuByPid(pidsOf('redis-server')),
  };
  const requests = runs.reduce((sum, run) => sum + run.requests.total, 0);
  const spent = (part: keyof typeof before) =>
    [...after[part]].reduce((sum, [pid, ms]) => sum + ms - (before[part].get(pid) ?? 0), 0);
  const perRequest = (part: keyof typeof before) => spent(part) / Math.max(1, requests);
  return {
    rps: runs.reduce((sum, run) => sum + run.requests.average, 0),
    p99: Math.max(...runs.map((run) => run.latency.p99)),
    failures: runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0),
    cpuMsPerRequest: { servers: perRequest('servers'), postgres: perRequest('postgres'), redis: perRequest('redis') },
  };
}

/** The filled catalog, rows as they are, into the PostgreSQL schema (migrated first). */
async function copyCatalogToPostgres(folder: string, url: string): Promise<void> {
  const services = await createServices(
    loadConfig({ SOUND_CATALOG_DATA: folder, SOUND_CATALOG_DEMO: '0', DATABASE_URL: url }),
  );
  await services.close();
  const sqlite = new SQLite(path.join(folder, 'catalog.sqlite'), { readonly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The change log's trigger is for changes made while instances run; a copy is not one.
    await client.query('ALTER TABLE sounds DISABLE TRIGGER sounds_log');
    const columns = Object.keys(sqlite.prepare('SELECT * FROM sounds LIMIT 1').get() as object);
    const sounds = sqlite.prepare('SELECT * FROM sounds ORDER BY seq').raw().all() as unknown[][];
    await insertRows(client, 'sounds', columns, sounds);
    await client.query('ALTER TABLE sounds ENABLE TRIGGER sounds_log');
    await client.query(`SELECT setval(pg_get_serial_sequence('sounds', 'seq'), (SELECT max(seq) FROM sounds))`);
    await client.query('INSERT INTO catalog_changes (sound_seq) VALUES ((SELECT max(seq) FROM sounds))');
  } finally {
    await client.end();
    sqlite.close();
  }
}

async function insertRows(client: pg.Client, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  for (let from = 0; from < rows.length; from += 1000) {
    const batch = rows.slice(from, from + 1000);
    const values: unknown[] = [];
    const tuples = batch.map((row) => `(${row.map((value) => `$${values.push(value)}`).join(', ')})`);
    await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values);
  }
}

function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.href;
}

async function runSql(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
