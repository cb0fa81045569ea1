/**
 * What following the catalog's change log costs when nothing happens:
 *   node --import tsx bench/idle-polling.ts [INSTANCES]   (default 2)
 * Starts INSTANCES idle servers on PostgreSQL + Redis (an empty catalog) and reads the CPU time
 * of PostgreSQL's processes and of the instances over 20 s. Each instance polls the log every
 * 100 ms. Needs PostgreSQL and Redis (DATABASE_URL and REDIS_URL, or the local defaults).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuByPid, pidsOf } from './processes.ts';

const INSTANCES = Number(process.argv[2] ?? 2);
const SECONDS = 20;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCHEMA = `bench_idle_${process.pid}`;
const root = path.resolve(import.meta.dirname, '..');

const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-idle-'));
await runSql(`CREATE SCHEMA ${SCHEMA}`);
const url = new URL(DATABASE_URL);
url.searchParams.set('options', `-c search_path=${SCHEMA}`);
const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', PORT: '0', DATABASE_URL: url.href, REDIS_URL };
const servers: ChildProcess[] = [];
for (let i = 0; i < INSTANCES; i++) servers.push(await startServe(env));
await new Promise((resolve) => setTimeout(resolve, 2000));

const before = { postgres: cpuByPid(pidsOf('postgres')), instances: cpuByPid(servers.map((child) => child.pid!)) };
await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
const after = { postgres: cpuByPid(pidsOf('postgres')), instances: cpuByPid(servers.map((child) => child.pid!)) };
const spent = (part: keyof typeof before) =>
  [...after[part]].reduce((sum, [pid, ms]) => sum + ms - (before[part].get(pid) ?? 0), 0);
console.log(
  JSON.stringify({
    instances: INSTANCES,
    seconds: SECONDS,
    postgresCpuMsPerSecond: spent('postgres') / SECONDS,
    instancesCpuMsPerSecond: spent('instances') / SECONDS,
    polls: INSTANCES * SECONDS * 10,
  }),
);
for (const child of servers) child.kill('SIGTERM');
await new Promise((resolve) => setTimeout(resolve, 500));
await runSql(`DROP SCHEMA ${SCHEMA} CASCADE`);
await rm(dataDir, { recursive: true, force: true });

async function startServe(environment: Record<string, string>): Promise<ChildProcess> {
  const logFile = path.join(tmpdir(), `sound-catalog-idle-${process.pid}-${Date.now()}.log`);
  const log = await open(logFile, 'w');
  const child = spawn(process.execPath, [path.join(root, 'bin/sound-catalog.js'), 'serve'], {
    env: { ...process.env, ...environment },
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (/is listening on/.test(await readFile(logFile, 'utf8'))) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not start: ${await readFile(logFile, 'utf8')}`);
}

async function runSql(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}
