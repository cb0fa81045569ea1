/**
 * Builds side by side:  node --import tsx bench/pairs.ts SIZE RUNS CHECKOUT...
 * Each CHECKOUT is a folder holding this project, built (dist/ as `npm run build` leaves it): `.`
 * for the current one; an earlier commit with `git worktree add DIR REV`, `npm run build` in DIR.
 * On one data folder of SIZE sounds (filled once and kept: $TMPDIR/sound-catalog-pairs-SIZE;
 * each checkout serves a fresh copy of it, so builds with different schemas can be compared),
 * each checkout's server is started in turn, RUNS times round, and serves the realistic mix of
 * bench/api.ts (20,000 searches in a Zipf mix, one request in ten a download, 50 connections)
 * for BENCH_SECONDS (10) after it settles (server-process.ts settleSeconds) and a 2 s warm-up,
 * with nothing else running. BENCH_MIX=additions serves the mix with the additions instead
 * (relevance, facets, onset and loudness filters, 10% similar).
 * BENCH_NODE_ARGS adds node flags to each server: "--cpu-prof --cpu-prof-dir=DIR" for a profile.
 *
 * Why: on a shared machine two runs minutes apart can differ by 2x. Runs that alternate let the
 * machine's load fall on both builds alike; compare them pair by pair. Prints each run: req/s,
 * p50 and p99 in ms, the server's CPU time per request and its peak resident memory.
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuByPid, keptCatalog, soundIds } from './processes.ts';
import { additionsRequest, extensionMix, generator, queryMix, realisticRequest } from './query-mix.ts';
import { heapArguments, residentMemoryMb, settleSeconds, startChild } from './server-process.ts';

const [size, runs] = process.argv.slice(2, 4).map(Number);
const checkouts = process.argv.slice(4).map((folder) => path.resolve(folder));
if (!size || !runs || checkouts.length === 0) {
  process.stderr.write('usage: node --import tsx bench/pairs.ts SIZE RUNS CHECKOUT...\n');
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const additions = process.env.BENCH_MIX === 'additions';
const env = { SOUND_CATALOG_DEMO: '0' };
const { dataDir, keys } = await keptCatalog(size);
const ids = soundIds(dataDir, 5000);

// Each checkout serves a copy of the filled folder: a newer build migrates its database, which an
// older build would then refuse to open.
const folderOf = new Map(
  checkouts.map((checkout, i) => {
    const copy = `${dataDir}-build-${i}`;
    rmSync(copy, { recursive: true, force: true });
    cpSync(dataDir, copy, { recursive: true });
    return [checkout, copy];
  }),
);

for (let run = 1; run <= runs; run++) {
  for (const checkout of checkouts) {
    // npm start's command, from that checkout, with docs/operations.md's heap bound.
    const server = await startChild(
      [
        ...(process.env.BENCH_NODE_ARGS?.split(' ') ?? []),
        ...heapArguments(size),
        path.join(checkout, 'bin/sound-catalog.js'),
        'serve',
      ],
      { ...env, SOUND_CATALOG_DATA: folderOf.get(checkout)!, PORT: '0' },
    );
    const pid = server.child.pid!;
    const random = generator(7);
    const mix = additions ? extensionMix(random, 20_000) : queryMix(random, 20_000);
    const next = additions ? () => additionsRequest(random, mix, ids) : () => realisticRequest(random, mix, ids);
    let sent = 0;
    const requests = [
      {
        method: 'GET' as const,
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          path: next(),
          headers: { 'x-api-key': keys[sent++ % keys.length]! },
        }),
      },
    ];
    await new Promise((resolve) => setTimeout(resolve, settleSeconds(size) * 1000));
    await autocannon({ url: server.url, connections: 50, duration: 2, requests });
    let peakRss = 0;
    const sampler = setInterval(
      () =>
        void residentMemoryMb(pid).then(
          (mb) => (peakRss = Math.max(peakRss, mb)),
          () => {},
        ),
      200,
    );
    const cpuBefore = cpuByPid([pid]).get(pid)!;
    const result = await autocannon({ url: server.url, connections: 50, duration: seconds, requests });
    const cpuMs = cpuByPid([pid]).get(pid)! - cpuBefore;
    clearInterval(sampler);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    console.log(
      JSON.stringify({
        run,
        checkout,
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        cpuUsPerRequest: Math.round((cpuMs * 1000) / result.requests.total),
        peakRssMb: peakRss,
        errors: result.errors + result.non2xx,
      }),
    );
  }
}
