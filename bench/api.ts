/**
 * API benchmark: `npm run bench` (node --import tsx bench/api.ts [sizes...]).
 * For each catalog size, fills a fresh data folder, starts the real server in a child process
 * (compiled, as `npm start` runs it; default settings; logs to a file) and drives it with
 * autocannon, 50 connections. This machine is shared and noisy, so every scenario, the bare
 * Fastify ceiling included, is measured in turn, ROUNDS times over; the table gives medians, and
 * each ratio to the ceiling is the median of the ratios within one round.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/wiring.ts';
import { insertCatalogRows } from './catalog-rows.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
// Five rounds: on this shared machine the hello-world ceiling alone moved 26,000-57,000 req/s
// between the rounds of one run; a median of five is steadier than one of three.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const root = path.resolve(import.meta.dirname, '..');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);

interface Scenario {
  name: string;
  url: string;
  /** A fixed list the connections go through, or a function giving each request its own path. */
  requests: Requests;
  /** Load sent at the same time by 5 more connections; the row reports the main load only. */
  alongside?: Requests;
}
type Requests = Array<{ path: string; headers?: Record<string, string> }> | (() => { path: string; headers?: Record<string, string> });
interface Run { rps: number; p50: number; p99: number; errors: number; non2xx: number }

// The server runs compiled, without tsx's loader.
execFileSync(process.execPath, [path.join(root, 'scripts/build.js')], { stdio: 'inherit' });

const table: string[] = [];
for (const size of sizes.length > 0 ? sizes : [12_000, 100_000]) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-bench-'));
  const services = await createServices(loadConfig({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' }));
  await insertCatalogRows(services.database.db, size);
  // A hundred enterprise accounts: 5,000,000 requests a day between them. Five rounds at 12,000
  // sounds sent about 2,300,000, past the 2,000,000 of the forty accounts this had before.
  const keys: string[] = [];
  for (let i = 0; i < 100; i++) {
    const account = await services.accounts.createAccount(`bench${i}@example.com`, 'enterprise');
    for (let k = 0; k < 2; k++) keys.push((await services.accounts.createKey(account.id, `bench${k}`)).key);
  }
  const someId = (await services.catalog.popular(1)).items[0]!.id;
  await services.close();

  // Exactly as `npm start` runs it, node's flags included.
  const server = await startChild(startArguments(), { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', PORT: '0' });
  const searchPath = '/api/v1/sounds?q=laser%20short&tags=sci-fi&sort=duration&order=asc';
  // The same answer from a bare Fastify route: what a body of that size costs with no work at all.
  const bodyFile = path.join(dataDir, 'search-body.json');
  await writeFile(bodyFile, await (await fetch(server.url + searchPath, { headers: { 'x-api-key': keys[0]! } })).text());
  const bare = await startChild(['--import', 'tsx', path.join(root, 'bench/hello-world.ts')], { BODY_FILE: bodyFile });

  let sent = 0;
  const withKey = (p: string) => ({ path: p, headers: { 'x-api-key': keys[sent++ % keys.length]! } });
  const words = ['laser', 'coin', 'door', 'rain', 'wind', 'wave', 'click', 'beep', 'glass', 'metal', 'wood', 'water', 'fire', 'engine', 'bass', 'drum'];
  const pairs = words.flatMap((a) => words.filter((b) => b !== a).map((b) => `/api/v1/sounds?q=${a}%20${b}&sort=duration&order=asc`));
  const searchRequests = keys.map((key) => ({ path: searchPath, headers: { 'x-api-key': key } }));
  const newQuery = () => withKey(`${pairs[sent % pairs.length]}&min_duration=0.${String(sent).padStart(7, '0')}`);
  const scenarios: Scenario[] = [
    { name: 'hello-world (bare Fastify, 17-byte body)', url: bare.url, requests: [{ path: '/' }] },
    // Right after the ceiling it is compared with: on this shared machine the ceiling drifts
    // within a minute, so each round's ratio is taken from runs made seconds apart.
    { name: 'search: 2 words + tag + sort, one query', url: server.url, requests: searchRequests },
    { name: 'bare Fastify answering the same body as search', url: bare.url, requests: [{ path: '/body' }] },
    { name: 'bare Fastify sending that body as ready-made text', url: bare.url, requests: [{ path: '/body-text' }] },
    { name: 'bare Fastify sending that body as ready-made bytes', url: bare.url, requests: [{ path: '/body-bytes' }] },
    { name: 'sample list (public)', url: server.url, requests: [{ path: '/api/v1/sounds/sample' }] },
    { name: 'search: 240 different 2-word queries in turn', url: server.url, requests: () => withKey(pairs[sent % pairs.length]!) },
    // A minimum duration no request repeats: every answer is computed, none comes from the cache.
    { name: 'search: every request a new query (no cache)', url: server.url, requests: newQuery },
    { name: 'search, one query, while 5 more connections send new queries', url: server.url, requests: searchRequests, alongside: newQuery },
    { name: 'details', url: server.url, requests: keys.map((key) => ({ path: `/api/v1/sounds/${someId}`, headers: { 'x-api-key': key } })) },
    { name: 'download (counts a download)', url: server.url, requests: keys.map((key) => ({ path: `/api/v1/sounds/${someId}/download`, headers: { 'x-api-key': key } })) },
  ];

  const runs = new Map<string, Run[]>(scenarios.map((scenario) => [scenario.name, []]));
  let peakRss = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    for (const scenario of scenarios) {
      const run = await measure(scenario);
      runs.get(scenario.name)!.push(run);
      const rss = await residentMemoryMb(server.child.pid!);
      peakRss = Math.max(peakRss, rss);
      console.log(JSON.stringify({ size, round, scenario: scenario.name, ...run, serverRssMb: rss }));
    }
  }
  server.child.kill('SIGTERM');
  bare.child.kill();
  await rm(dataDir, { recursive: true, force: true });

  // Each run is compared with the ceiling measured in its own round, then the median is taken.
  const ceilings = runs.get(scenarios[0]!.name)!.map((run) => run.rps);
  for (const scenario of scenarios) {
    const results = runs.get(scenario.name)!;
    const rps = median(results.map((run) => run.rps));
    const ratio = median(results.map((run, round) => run.rps / ceilings[round]!));
    const failures = results.reduce((sum, run) => sum + run.errors + run.non2xx, 0);
    table.push(`| ${scenario.name} | ${size.toLocaleString('en')} | ${Math.round(rps).toLocaleString('en')} | ${(ratio * 100).toFixed(0)}% `
      + `| ${median(results.map((run) => run.p50))} | ${median(results.map((run) => run.p99))} | ${failures} |`);
  }
  table.push(`| server's peak resident memory, sampled after each run | ${size.toLocaleString('en')} | ${peakRss} MB | | | | |`);
}

console.log(`\n${ROUNDS} rounds of ${DURATION_S} s per scenario, medians; 50 connections.\n`);
console.log('| scenario | sounds | req/s | vs hello-world in its round | p50 ms | p99 ms | errors + non-2xx |');
console.log('|---|---|---|---|---|---|---|');
for (const line of table) console.log(line);

async function measure(scenario: Scenario): Promise<Run> {
  const requests = asAutocannon(scenario.requests);
  const alongside = scenario.alongside ? asAutocannon(scenario.alongside) : null;
  const load = (connections: number, duration: number, list: autocannon.Request[]) =>
    autocannon({ url: scenario.url, connections, duration, requests: list });
  // A short warm-up so JIT and caches are in the state a long-running server is in.
  await Promise.all([load(CONNECTIONS, 1, requests), alongside && load(5, 1, alongside)]);
  const [run] = await Promise.all([load(CONNECTIONS, DURATION_S, requests), alongside && load(5, DURATION_S, alongside)]);
  return { rps: run.requests.average, p50: run.latency.p50, p99: run.latency.p99, errors: run.errors, non2xx: run.non2xx };
}

function asAutocannon(requests: Requests): autocannon.Request[] {
  return typeof requests === 'function'
    ? [{ method: 'GET', setupRequest: (request: autocannon.Request) => ({ ...request, ...requests() }) }]
    : requests.map((request) => ({ method: 'GET', ...request }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The node arguments of package.json's start script (`node FLAGS... bin/sound-catalog.js serve`). */
function startArguments(): string[] {
  const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [command, ...args] = packageJson.scripts.start.split(/\s+/);
  if (command !== 'node') throw new Error(`the start script does not run node: ${packageJson.scripts.start}`);
  return args.map((arg) => (arg.startsWith('bin/') ? path.join(root, arg) : arg));
}

async function startChild(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  // Output goes to a file, not a pipe: a server writing logs into a pipe that this busy process
  // drains late would be measured waiting on its own logging.
  const logFile = path.join(tmpdir(), `sound-catalog-bench-${process.pid}-${Date.now()}.log`);
  const log = await open(logFile, 'w');
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', log.fd, log.fd] });
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
