/**
 * API benchmark: `npm run bench` (node --import tsx bench/api.ts [sizes...]; default 12000 100000;
 * BENCH_ROUNDS, BENCH_SECONDS, BENCH_ONLY and BENCH_CONNECTIONS, below, narrow a run; BENCH_HEAP_MB replaces the heap
 * bound docs/operations.md gives for the size).
 * For each catalog size: fills a fresh data folder (bench/fill-catalog.ts), starts the real
 * server in a child process exactly as `npm start` does (logs to a file) and drives it with
 * autocannon, 50 connections unless told, from this process, once it has settled (server-process.ts
 * settleSeconds: 100 s at 1,000,000 sounds). Every scenario, a bare Fastify route included,
 * is measured in turn, ROUNDS times over: this machine is shared and noisy, so the table gives
 * medians, and each ratio to the bare route is the median of the ratios within one round.
 *
 * The headline is what clients send: 20,000 different searches built from the catalog's words,
 * asked in a Zipf distribution (a few often, most rarely), every parameter of the API in use,
 * and one request in ten a download. Beside it: a mix where no query is ever asked twice, and
 * one query asked over and over (secondary). The server's resident memory is sampled every
 * 200 ms throughout; its peak is reported.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { fillCatalog } from './fill-catalog.ts';
import { createBenchKeys, soundIds } from './processes.ts';
import {
  additionsRequest,
  extensionMix,
  generator,
  neverAskedQuery,
  queryMix,
  realisticRequest,
  similarRequest,
  type Generator,
} from './query-mix.ts';
import {
  heapArguments,
  heapBoundMb,
  residentMemoryMb,
  settleSeconds,
  startArguments,
  startChild,
} from './server-process.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** BENCH_ONLY=realistic,repeated: only the scenarios whose names hold one of these words (hello-world always runs). */
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean) ?? [];
/**
 * BENCH_CONNECTIONS (50): clients at once. With 50 the server is saturated, so its p99 is mostly
 * time spent queued (Little's law: 50 connections at R req/s wait 50/R s on average); fewer show
 * the latency of a request under a lighter load.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DISTINCT_QUERIES = 20_000;
const root = path.resolve(import.meta.dirname, '..');
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);

type Next = () => { path: string; headers?: Record<string, string> };
/** `next` gives each request its own path; a fixed `path` is sent as it is (the cheapest for the client). */
interface Scenario {
  name: string;
  url: string;
  next?: Next;
  path?: string;
}
interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

// The server runs compiled, as npm start runs it: build dist/ from the sources as they are.
execFileSync(process.execPath, [path.join(root, 'scripts/build.js')], { stdio: 'inherit' });

const table: string[] = [];
for (const size of sizes.length > 0 ? sizes : [12_000, 100_000]) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-bench-'));
  const filled = performance.now();
  await fillCatalog(dataDir, size);
  console.log(JSON.stringify({ size, fillSeconds: Math.round((performance.now() - filled) / 100) / 10 }));
  const keys = await createBenchKeys({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' }, 'bench');
  const ids = soundIds(dataDir, 5000);

  // npm start's command with the heap bound docs/operations.md documents for a catalog of this size.
  const heapMb = Number(process.env.BENCH_HEAP_MB ?? heapBoundMb(size));
  const server = await startChild([...heapArguments(size, heapMb), ...startArguments(), 'serve'], {
    SOUND_CATALOG_DATA: dataDir,
    SOUND_CATALOG_DEMO: '0',
    PORT: '0',
  });
  const built = /"sounds":(\d+),.*?"ms":(\d+)/.exec(await readFile(server.logFile, 'utf8'));
  console.log(
    JSON.stringify({
      size,
      heapMb,
      indexBuiltMs: built ? Number(built[2]) : null,
      startRssMb: await residentMemoryMb(server.child.pid!),
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, settleSeconds(size) * 1000));
  const bare = await startChild(['--import', 'tsx', path.join(root, 'bench/hello-world.ts')], {});

  const random = generator(7);
  const mix = queryMix(random, DISTINCT_QUERIES);
  const asked = new Set(mix);
  let sent = 0;
  const withKey = (p: string) => ({ path: p, headers: { 'x-api-key': keys[sent++ % keys.length]! } });
  const download = (r: Generator) => `/api/v1/sounds/${r.zipf(ids)}/download`;
  const extensions = extensionMix(random, DISTINCT_QUERIES);
  const allScenarios: Scenario[] = [
    { name: 'hello-world (bare Fastify, 17-byte body)', url: bare.url, path: '/' },
    {
      name: `realistic mix: ${DISTINCT_QUERIES.toLocaleString('en')} searches (Zipf), 10% downloads`,
      url: server.url,
      next: () => withKey(realisticRequest(random, mix, ids)),
    },
    {
      name: 'no query repeated (every search new), 10% downloads',
      url: server.url,
      next: () => withKey(random.next() < 0.1 ? download(random) : neverAskedQuery(random, asked)),
    },
    {
      name:
        `with extensions: ${DISTINCT_QUERIES.toLocaleString('en')} searches ` +
        `(Zipf; relevance, facets, onset, LUFS), 10% similar, 10% downloads`,
      url: server.url,
      next: () => withKey(additionsRequest(random, extensions, ids)),
    },
    {
      name: 'similar sounds only (limit 5 to 50)',
      url: server.url,
      next: () => withKey(similarRequest(random, ids)),
    },
    {
      name: 'one query asked over and over (secondary)',
      url: server.url,
      next: () => withKey('/api/v1/sounds?q=laser%20short&tags=game&sort=duration&order=asc'),
    },
  ];
  const scenarios = allScenarios.filter(
    (scenario, n) => n === 0 || ONLY.length === 0 || ONLY.some((word) => scenario.name.includes(word)),
  );

  const memory = sampleMemory(server.child.pid!);
  const runs = new Map<string, Run[]>(scenarios.map((scenario) => [scenario.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const scenario of scenarios) {
      const run = await measure(scenario);
      runs.get(scenario.name)!.push(run);
      console.log(JSON.stringify({ size, round, scenario: scenario.name, ...run, serverRssMb: memory.now() }));
    }
  }
  const peakRss = memory.stop();
  server.child.kill('SIGTERM');
  bare.child.kill();
  await rm(dataDir, { recursive: true, force: true });

  const ceilings = runs.get(scenarios[0]!.name)!.map((run) => run.rps);
  for (const scenario of scenarios) {
    const results = runs.get(scenario.name)!;
    const ratio = median(results.map((run, round) => run.rps / ceilings[round]!));
    const failures = results.reduce((sum, run) => sum + run.errors + run.non2xx, 0);
    table.push(
      `| ${scenario.name} | ${size.toLocaleString('en')} | ` +
        `${Math.round(median(results.map((run) => run.rps))).toLocaleString('en')} ` +
        `| ${(ratio * 100).toFixed(1)}% | ${median(results.map((run) => run.p50))} ` +
        `| ${median(results.map((run) => run.p99))} | ${failures} |`,
    );
  }
  table.push(
    `| server's peak resident memory (sampled every 200 ms) | ${size.toLocaleString('en')} | ${peakRss} MB | | | | |`,
  );
}

console.log(`\n${ROUNDS} rounds of ${DURATION_S} s per scenario, medians; ${CONNECTIONS} connections.\n`);
console.log('| scenario | sounds | req/s | vs hello-world in its round | p50 ms | p99 ms | errors + non-2xx |');
console.log('|---|---|---|---|---|---|---|');
for (const line of table) console.log(line);

async function measure(scenario: Scenario): Promise<Run> {
  const { next, path: fixed } = scenario;
  const requests = next
    ? [{ method: 'GET' as const, setupRequest: (request: autocannon.Request) => ({ ...request, ...next() }) }]
    : [{ method: 'GET' as const, path: fixed! }];
  const load = (duration: number) => autocannon({ url: scenario.url, connections: CONNECTIONS, duration, requests });
  await load(1); // warm-up: JIT and the state a long-running server is in
  const run = await load(DURATION_S);
  return {
    rps: run.requests.average,
    p50: run.latency.p50,
    p99: run.latency.p99,
    errors: run.errors,
    non2xx: run.non2xx,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function sampleMemory(pid: number): { now(): number; stop(): number } {
  let peak = 0;
  let last = 0;
  const timer = setInterval(() => {
    residentMemoryMb(pid).then(
      (rss) => {
        last = rss;
        peak = Math.max(peak, rss);
      },
      () => {},
    );
  }, 200);
  return { now: () => last, stop: () => (clearInterval(timer), peak) };
}
