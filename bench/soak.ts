/**
 * Soak benchmark (issue 18): node --import tsx bench/soak.ts [--minutes 10] [--connections 16]
 *   [--audio 1000] [--filled 11000] [--window 30]
 *
 * Builds a catalog of real seeded sounds (MP3 files behind signed URLs) and metadata-only ones,
 * starts the real server as `npm start` does, then keeps CONNECTIONS clients busy for MINUTES with
 * mixed traffic (bench/soak-traffic.ts): searches, details, downloads and streams with their
 * media fetched (Range too), MCP sessions and tool calls, dashboard pages, and requests refused on
 * purpose. Every window (30 s) prints its requests, its errors by kind, p50 and p99, and the
 * server's resident memory; the end prints a table and a JSON summary. What it is for: a long
 * run must end with no errors and the same memory it had once warm.
 */
import { execFileSync } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cpuByPid, createBenchKeys } from './processes.ts';
import { extensionMix, generator, queryMix } from './query-mix.ts';
import { heapArguments, heapBoundMb, residentMemoryMb, startArguments, startChild } from './server-process.ts';
import { buildCatalog, cli, dashboardCookie } from './soak-setup.ts';
import { Client, type Sample } from './soak-traffic.ts';

const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    audio: { type: 'string', default: '1000' },
    filled: { type: 'string', default: '11000' },
    window: { type: 'string', default: '30' },
  },
});
const MINUTES = Number(options.minutes);
const CONNECTIONS = Number(options.connections);
const WINDOW_S = Number(options.window);
const root = path.resolve(import.meta.dirname, '..');

interface Window {
  endsAtS: number;
  requests: number;
  errors: Record<string, number>;
  p50: number;
  p99: number;
  rssMb: number;
  peakRssMb: number;
  /** The machine's one-minute load average (2 cores, shared): how noisy the window was. */
  load: number;
}

/** The samples of the window under way, and per kind of request over the whole run. */
class Recorder {
  private latencies: number[] = [];
  private errors = new Map<string, number>();
  readonly byKind = new Map<string, { latencies: number[]; errors: number }>();

  record = (sample: Sample): void => {
    if (sample.ms !== null) this.latencies.push(sample.ms);
    if (sample.error) this.errors.set(sample.error, (this.errors.get(sample.error) ?? 0) + 1);
    const kind = this.byKind.get(sample.kind) ?? { latencies: [], errors: 0 };
    this.byKind.set(sample.kind, kind);
    if (sample.ms !== null) kind.latencies.push(sample.ms);
    if (sample.error) kind.errors += 1;
  };

  /** Ends the window: its numbers, and a fresh one begins. */
  close(endsAtS: number, rssMb: number, peakRssMb: number): Window {
    const sorted = this.latencies.sort((a, b) => a - b);
    const window = {
      endsAtS,
      requests: sorted.length,
      errors: Object.fromEntries(this.errors),
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      rssMb,
      peakRssMb,
      load: Math.round(loadavg()[0]! * 10) / 10,
    };
    this.latencies = [];
    this.errors = new Map();
    return window;
  }
}

// The server runs compiled, as npm start runs it: build dist/ from the sources as they are.
execFileSync(process.execPath, [path.join(root, 'scripts/build.js')], { stdio: 'inherit' });

const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-soak-'));
const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };
const catalog = await buildCatalog(dataDir, Number(options.audio), Number(options.filled));
const catalogSummary = {
  sounds: catalog.ids.length,
  withAudio: catalog.audioIds.length,
  seedSeconds: Math.round(catalog.seedSeconds),
  fillSeconds: Math.round(catalog.fillSeconds),
};
console.log(JSON.stringify({ catalog: catalogSummary }));
// One account and key made as an operator makes them (the CLI), and a hundred more Enterprise
// accounts made in process: the run sends more requests than one account's daily quota (50,000).
await cli(['accounts', 'create', '--email', 'soak-cli@example.com', '--plan', 'enterprise'], env);
const cliKey = String((await cli(['keys', 'create', '--email', 'soak-cli@example.com', '--name', 'soak'], env)).key);
const keys = [cliKey, ...(await createBenchKeys(env, 'soak'))];

const heapMb = heapBoundMb(catalog.ids.length);
const server = await startChild([...heapArguments(catalog.ids.length, heapMb), ...startArguments(), 'serve'], {
  ...env,
  PORT: '0',
});
const pid = server.child.pid!;
const cookie = await dashboardCookie(server.url, env);

const random = generator(18);
const searches = shuffled([...queryMix(random, 18_000), ...extensionMix(random, 2_000)], random.next);
const recorder = new Recorder();
const setup = {
  url: server.url,
  keys,
  ids: catalog.ids,
  audioIds: catalog.audioIds,
  searches,
  dashboardCookie: cookie,
  record: recorder.record,
};

const idleRssMb = await residentMemoryMb(pid);
console.log(
  JSON.stringify({
    server: server.url,
    heapMb,
    idleRssMb,
    minutes: MINUTES,
    connections: CONNECTIONS,
    windowSeconds: WINDOW_S,
  }),
);

// Resident memory read every second; each window reports its last reading and its peak.
let windowPeak = 0;
let _lastRss = idleRssMb;
const memoryTimer = setInterval(() => {
  residentMemoryMb(pid).then(
    (rss) => ((_lastRss = rss), (windowPeak = Math.max(windowPeak, rss))),
    () => {},
  );
}, 1000);

const windows: Window[] = [];
const windowCount = Math.max(1, Math.round((MINUTES * 60) / WINDOW_S));
const cpuBefore = cpuByPid([pid, process.pid]);
const started = performance.now();
const closeWindow = async () => {
  const rss = await residentMemoryMb(pid);
  const window = recorder.close(Math.round((performance.now() - started) / 1000), rss, Math.max(windowPeak, rss));
  windowPeak = 0;
  windows.push(window);
  console.log(JSON.stringify({ window: windows.length, ...window }));
};
// The last window is closed once every client has stopped, so it holds their last requests too.
const windowTimer = setInterval(() => void (windows.length < windowCount - 1 && closeWindow()), WINDOW_S * 1000);
const until = started + MINUTES * 60_000;
await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => new Client(setup, generator(100 + i)).run(until)));
clearInterval(windowTimer);
await closeWindow();
const cpuAfter = cpuByPid([pid, process.pid]);
const cpuSeconds = (who: number) => Math.round(((cpuAfter.get(who) ?? 0) - (cpuBefore.get(who) ?? 0)) / 1000);

// Memory once the traffic has stopped and the server has had a few seconds to itself.
await new Promise((resolve) => setTimeout(resolve, 5000));
clearInterval(memoryTimer);
const quietRssMb = await residentMemoryMb(pid);
const shutdown = await stopServer();
const serverErrors = (await readFile(server.logFile, 'utf8'))
  .split('\n')
  .filter((line) => /"level":(50|60)/.test(line));
await rm(dataDir, { recursive: true, force: true });

const errorsByKind: Record<string, number> = {};
for (const window of windows)
  for (const [kind, n] of Object.entries(window.errors)) errorsByKind[kind] = (errorsByKind[kind] ?? 0) + n;
const totalErrors = Object.values(errorsByKind).reduce((sum, n) => sum + n, 0);
const firstRss = windows[0]!.rssMb;
const endRss = windows.at(-1)!.rssMb;

console.log(
  `\n${MINUTES} min, ${CONNECTIONS} connections, ${catalogSummary.sounds.toLocaleString('en')} ` +
    `sounds (${catalogSummary.withAudio} with audio); server RSS idle before traffic ${idleRssMb} MB.\n`,
);
console.log(
  '| window | ends at | requests | req/s | errors | p50 ms | p99 ms | server RSS MB (end / peak) | load avg |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
let previousEnd = 0;
windows.forEach((window, i) => {
  const seconds = window.endsAtS - previousEnd;
  previousEnd = window.endsAtS;
  const errors = Object.values(window.errors).reduce((sum, n) => sum + n, 0);
  console.log(
    `| ${i + 1} | ${clock(window.endsAtS)} | ${window.requests.toLocaleString('en')} ` +
      `| ${Math.round(window.requests / Math.max(1, seconds)).toLocaleString('en')} ` +
      `| ${errors} | ${round(window.p50)} | ${round(window.p99)} ` +
      `| ${window.rssMb} / ${window.peakRssMb} | ${window.load} |`,
  );
});
console.log('\n| request kind | requests | p50 ms | p99 ms | errors |');
console.log('|---|---|---|---|---|');
for (const [kind, { latencies, errors }] of [...recorder.byKind].sort(([a], [b]) => a.localeCompare(b))) {
  const sorted = latencies.sort((a, b) => a - b);
  console.log(
    `| ${kind} | ${sorted.length.toLocaleString('en')} | ` +
      `${round(percentile(sorted, 0.5))} | ${round(percentile(sorted, 0.99))} | ${errors} |`,
  );
}

console.log(
  `\n${JSON.stringify({
    minutes: MINUTES,
    connections: CONNECTIONS,
    catalog: catalogSummary,
    requests: windows.reduce((sum, window) => sum + window.requests, 0),
    errors: totalErrors,
    errorsByKind,
    p99ByWindow: windows.map((window) => round(window.p99)),
    rssMb: {
      idle: idleRssMb,
      firstWindow: firstRss,
      end: endRss,
      peak: Math.max(...windows.map((window) => window.peakRssMb)),
      quietAfter: quietRssMb,
      growth: endRss - firstRss,
    },
    cpuSeconds: { server: cpuSeconds(pid), clients: cpuSeconds(process.pid) },
    serverErrorLogLines: serverErrors.length,
    firstServerErrors: serverErrors.slice(0, 3),
    shutdown,
    serverLog: server.logFile,
  })}`,
);
process.exit(totalErrors === 0 && serverErrors.length === 0 ? 0 : 1);

/** SIGTERM, as an operator stops it: how long the clean shutdown took and how the process ended. */
async function stopServer(): Promise<{ ms: number; code: number | null; signal: string | null }> {
  const asked = performance.now();
  const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    server.child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  server.child.kill('SIGTERM');
  const timeout = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  const result = await ended;
  clearTimeout(timeout);
  return { ms: Math.round(performance.now() - asked), ...result };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

function round(ms: number): number {
  return ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms);
}

function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The list in a random order (Fisher-Yates), so that a Zipf pick favours a mix of both kinds of search. */
function shuffled<T>(list: T[], next: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}
