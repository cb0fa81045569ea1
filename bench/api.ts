/**
 * API benchmark: `npm run bench` (node --import tsx bench/api.ts [sizes...]).
 * For each catalog size, fills a fresh data folder, starts the real server in a child process
 * (default settings, logs to /dev/null) and drives it with autocannon, 50 connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/wiring.ts';
import { insertCatalogRows } from './catalog-rows.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const root = path.resolve(import.meta.dirname, '..');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);

interface Result { scenario: string; size: number; rps: number; p50: number; p99: number; errors: number; non2xx: number }
const results: Result[] = [];

const hello = await startChild([path.join(root, 'bench/hello-world.ts')], {});
results.push(await measure('hello-world (bare Fastify)', 0, hello.url, [{ path: '/' }]));
hello.child.kill();

for (const size of sizes.length > 0 ? sizes : [12_000, 100_000]) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-bench-'));
  const services = await createServices(loadConfig({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' }));
  await insertCatalogRows(services.database.db, size);
  // Ten enterprise accounts: 500,000 requests a day between them, more than a run sends.
  const keys: string[] = [];
  for (let i = 0; i < 10; i++) {
    const account = await services.accounts.createAccount(`bench${i}@example.com`, 'enterprise');
    for (let k = 0; k < 2; k++) keys.push((await services.accounts.createKey(account.id, `bench${k}`)).key);
  }
  const someId = (await services.catalog.popular(1)).items[0]!.id;
  await services.close();

  const server = await startChild([path.join(root, 'bin/sound-catalog.js'), 'serve'],
    { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', PORT: '0' });
  const withKeys = (p: string) => keys.map((key) => ({ path: p, headers: { 'x-api-key': key } }));
  results.push(await measure('sample list', size, server.url, [{ path: '/api/v1/sounds/sample' }]));
  results.push(await measure('search: 2 words + tag + sort', size, server.url, withKeys('/api/v1/sounds?q=laser%20short&tags=sci-fi&sort=duration&order=asc')));
  results.push(await measure('details', size, server.url, withKeys(`/api/v1/sounds/${someId}`)));
  results.push(await measure('download', size, server.url, withKeys(`/api/v1/sounds/${someId}/download`)));
  const rss = await residentMemoryMb(server.child.pid!);
  server.child.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
  console.log(`resident memory after the runs at ${size} sounds: ${rss} MB`);
}

const ceiling = results[0]!.rps;
console.log('\n| scenario | sounds | req/s | vs hello-world | p50 ms | p99 ms | errors | non-2xx |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.scenario} | ${r.size || '-'} | ${r.rps.toFixed(0)} | ${((r.rps / ceiling) * 100).toFixed(0)}% | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
}

async function measure(scenario: string, size: number, url: string, requests: Array<{ path: string; headers?: Record<string, string> }>): Promise<Result> {
  // A short warm-up so JIT and caches are in the state a long-running server is in.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, requests: requests.map((r) => ({ method: 'GET', ...r })) });
  const run = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, requests: requests.map((r) => ({ method: 'GET', ...r })) });
  const result = { scenario, size, rps: run.requests.average, p50: run.latency.p50, p99: run.latency.p99, errors: run.errors, non2xx: run.non2xx };
  console.log(JSON.stringify(result));
  return result;
}

async function startChild(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${seen}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, url };
}

async function residentMemoryMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}
