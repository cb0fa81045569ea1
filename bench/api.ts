/**
 * API benchmark: `npm run bench` (node --import tsx bench/api.ts [sizes...]).
 * For each catalog size, fills a fresh data folder, starts the real server in a child process
 * (default settings, logs to /dev/null) and drives it with autocannon, 50 connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
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
  const searchPath = '/api/v1/sounds?q=laser%20short&tags=sci-fi&sort=duration&order=asc';
  // The same answer from a bare Fastify route: what a body of that size costs with no work at all.
  const bodyFile = path.join(dataDir, 'search-body.json');
  await writeFile(bodyFile, await (await fetch(server.url + searchPath, { headers: { 'x-api-key': keys[0]! } })).text());
  const bare = await startChild([path.join(root, 'bench/hello-world.ts')], { BODY_FILE: bodyFile });
  results.push(await measure('bare Fastify, same body as search', size, bare.url, [{ path: '/body' }]));
  bare.child.kill();
  results.push(await measure('sample list', size, server.url, [{ path: '/api/v1/sounds/sample' }]));
  results.push(await measure('search: 2 words + tag + sort', size, server.url, withKeys(searchPath)));
  // Different words each time: every answer misses the list cache and runs the query.
  const words = ['laser', 'coin', 'door', 'rain', 'wind', 'wave', 'click', 'beep', 'glass', 'metal', 'wood', 'water', 'fire', 'engine', 'bass', 'drum'];
  const varied = words.flatMap((a) => words.filter((b) => b !== a).map((b) => `/api/v1/sounds?q=${a}%20${b}&sort=duration&order=asc&limit=20`));
  results.push(await measure('search, 240 different queries', size, server.url, varied.flatMap((p, i) => [{ path: p, headers: { 'x-api-key': keys[i % keys.length]! } }])));
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
  // Output goes to a file, not a pipe: a server writing logs into a pipe that this busy process
  // drains late would be measured waiting on its own logging.
  const logFile = path.join(tmpdir(), `sound-catalog-bench-${process.pid}-${Date.now()}.log`);
  const log = await open(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', log.fd, log.fd] });
  await log.close();
  for (let waited = 0; waited < 120_000; waited += 100) {
    const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(await readFile(logFile, 'utf8'));
    if (match) return { child, url: match[1]! };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not start: ${await readFile(logFile, 'utf8')}`);
}

async function residentMemoryMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}
