/**
 * Downloads per second on PostgreSQL + Redis:  node --import tsx bench/downloads.ts
 * (DATABASE_URL and REDIS_URL, or the local defaults; BENCH_ROUNDS, default 5; BENCH_SECONDS,
 * default 5; BENCH_SOUNDS, default 1000).
 *
 * Fills a schema of its own with BENCH_SOUNDS sounds, starts the compiled server in a child
 * process as `npm start` does, and sends it `GET /api/v1/sounds/{id}/download` from 50
 * connections, each request for a sound picked at random (every sound is downloaded, so each
 * flush has many rows to write). Prints the median of the rounds: requests per second, latency,
 * and how many change-log rows the downloads wrote; then stops the server with SIGTERM and checks
 * that the stored counts add up to every download answered.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { contentHashOf } from '../src/catalog/writer.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/wiring.ts';
import { createBenchKeys } from './processes.ts';
import { startArguments, startChild } from './server-process.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const SOUNDS = Number(process.env.BENCH_SOUNDS ?? 1000);
const CONNECTIONS = 50;
const SCHEMA = `bench_downloads_${process.pid}`;
const root = path.resolve(import.meta.dirname, '..');

execFileSync(process.execPath, [path.join(root, 'scripts/build.js')], { stdio: 'inherit' });

const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-downloads-'));
await runSql(`CREATE SCHEMA ${SCHEMA}`);
const postgresUrl = new URL(DATABASE_URL);
postgresUrl.searchParams.set('options', `-c search_path=${SCHEMA}`);
const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', DATABASE_URL: postgresUrl.href, REDIS_URL };

try {
  const ids = await fillCatalog(SOUNDS);
  const keys = await createBenchKeys(env, `downloads-${process.pid}-`);
  const server = await startChild([...startArguments(), 'serve'], { ...env, PORT: '0', LOG_LEVEL: 'warn' });
  const runs: Array<{ rps: number; p50: number; p99: number; logRows: number; answered: number }> = [];
  let answered = 0;
  try {
    let n = 0;
    const next = () => ({
      path: `/api/v1/sounds/${ids[Math.floor(Math.random() * ids.length)]}/download`,
      headers: { 'x-api-key': keys[n++ % keys.length]! },
    });
    const load = (duration: number) =>
      autocannon({
        url: server.url,
        connections: CONNECTIONS,
        duration,
        requests: [{ method: 'GET', setupRequest: (request: autocannon.Request) => ({ ...request, ...next() }) }],
      });
    answered += (await load(1))['2xx']; // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      const logBefore = await changeLogRows();
      const run = await load(DURATION_S);
      // The last second's counts reach the log with the next flush.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const logRows = (await changeLogRows()) - logBefore;
      answered += run['2xx'];
      runs.push({
        rps: run.requests.average,
        p50: run.latency.p50,
        p99: run.latency.p99,
        logRows,
        answered: run['2xx'],
      });
      console.log(
        JSON.stringify({
          round,
          rps: run.requests.average,
          p50: run.latency.p50,
          p99: run.latency.p99,
          non2xx: run.non2xx,
          errors: run.errors,
          logRows,
          downloads: run['2xx'],
        }),
      );
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
  const stored = await storedDownloads();
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`| downloads/s (median of ${ROUNDS}) | p50 ms | p99 ms | change-log rows per download |`);
  console.log('|---|---|---|---|');
  console.log(
    `| ${Math.round(median(runs.map((r) => r.rps)))} | ${median(runs.map((r) => r.p50))} | ` +
      `${median(runs.map((r) => r.p99))} | ${median(runs.map((r) => r.logRows / r.answered)).toFixed(3)} |`,
  );
  // autocannon stops with up to CONNECTIONS requests in flight per run: counted, never answered.
  const inFlight = CONNECTIONS * (ROUNDS + 1);
  const adds = stored >= answered && stored <= answered + inFlight;
  console.log(
    `stored download counts after SIGTERM: ${stored}; answered 200: ${answered}, ` +
      `with at most ${inFlight} cut off in flight${adds ? '' : ' (MISMATCH)'}`,
  );
} finally {
  await runSql(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await rm(dataDir, { recursive: true, force: true });
}

/** Puts `count` sounds through the real writer, with made-up measurements; returns their ids. */
async function fillCatalog(count: number): Promise<string[]> {
  const services = await createServices(loadConfig(env));
  const ids: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const bytes = new Uint8Array(randomBytes(512));
      const { id } = await services.catalogWriter.put({
        contentHash: contentHashOf(bytes),
        mp3: bytes,
        metadata: {
          name: `Bench Sound ${i}`,
          description: null,
          tags: ['bench'],
          category: 'SFX',
          license: 'CC0',
          sample: false,
        },
        measurements: {
          duration: 1,
          timing: { onset_ms: 1, peak_ms: 2, tail_ms: 900 },
          loudness: { integrated_lufs: -18, true_peak_db: -1 },
          waveform: [[-0.5, 0.5]],
          descriptors: null,
        },
      });
      ids.push(id);
    }
  } finally {
    await services.close();
  }
  return ids;
}

/** The log's newest number: rows written so far (the feed prunes old rows, so they are not counted). */
async function changeLogRows(): Promise<number> {
  return Number((await query('SELECT coalesce(max(seq), 0) AS n FROM catalog_changes'))[0]!.n);
}

async function storedDownloads(): Promise<number> {
  return Number((await query('SELECT sum(count) AS n FROM sound_downloads'))[0]!.n);
}

async function query(statement: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: postgresUrl.href });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}

async function runSql(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
