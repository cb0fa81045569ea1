/**
 * Cursor walks: node --import tsx bench/cursor-walk.ts [SOUNDS] (default 100000; BENCH_ROUNDS, default 2).
 *
 * What a mirror does: one client reads a whole catalog a page at a time, each request waiting
 * for the one before. Fills a fresh data folder (bench/fill-catalog.ts), gives every sound one
 * change in the change log (as if each had been edited once since the mirror last looked), starts
 * the real server as `npm start` does, and walks, limit=100 each:
 * - REST search by cursor, from the empty cursor until next_cursor is null (checks every sound came once);
 * - GET /api/v1/changes from the change that preceded those edits until a page comes back empty;
 * - GET /api/v1/sounds/popular by cursor, the download ranking (each page a bisection of it).
 * After a warm-up of a hundred pages of each, in each round a bare Fastify route (bench/hello-world.ts) is asked the
 * same way, one request after another, as many times as the search walk has pages: the walks' pages per second are
 * given as a share of its requests per second.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from '../src/db/dialects/better-sqlite3.js';
import { encodeCursor } from '../src/shapes/params.ts';
import { fillCatalog } from './fill-catalog.ts';
import { createBenchKeys } from './processes.ts';
import { heapArguments, startArguments, startChild } from './server-process.ts';

const SIZE = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const LIMIT = 100;
const root = path.resolve(import.meta.dirname, '..');

interface Walk {
  pages: number;
  sounds: number;
  seconds: number;
  p50: number;
  p99: number;
}

execFileSync(process.execPath, [path.join(root, 'scripts/build.js')], { stdio: 'inherit' });
const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-walk-'));
await fillCatalog(dataDir, SIZE);
const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };
const [key] = await createBenchKeys(env, 'walk');
const since = touchEverySound(dataDir);

const server = await startChild([...heapArguments(SIZE), ...startArguments(), 'serve'], {
  ...env,
  PORT: '0',
});
const bare = await startChild(['--import', 'tsx', path.join(root, 'bench/hello-world.ts')], {});
const headers = { 'x-api-key': key! };

const results: Record<string, Walk[]> = { search: [], changes: [], popular: [], bare: [] };
try {
  // Warm-up, not counted: the first hundred pages of each walk (JIT, the database's cache, the serializers).
  const warm = (cursorUrl: (cursor: string | null) => string) =>
    walk(cursorUrl, (body: any) => ({ count: 0, next: body.pagination?.next_cursor ?? body.next_cursor }), true, 100);
  await warm((cursor) => `${server.url}/api/v1/sounds?limit=${LIMIT}&cursor=${cursor ?? ''}`);
  await warm((cursor) => `${server.url}/api/v1/changes?limit=${LIMIT}&since=${cursor ?? since}`);
  await warm((cursor) => `${server.url}/api/v1/sounds/popular?limit=${LIMIT}&cursor=${cursor ?? ''}`);
  await walk(
    () => `${bare.url}/`,
    () => ({ count: 0, next: 'more' }),
    false,
    100,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    const seen = new Set<string>();
    const search = await walk(
      (cursor) => `${server.url}/api/v1/sounds?limit=${LIMIT}&cursor=${cursor ?? ''}`,
      (body: any) => {
        for (const sound of body.data) seen.add(sound.id);
        return { count: body.data.length, next: body.pagination.next_cursor };
      },
    );
    if (seen.size !== SIZE || search.sounds !== SIZE)
      throw new Error(`the search walk saw ${seen.size} sounds (${search.sounds} in all) of ${SIZE}`);
    const changes = await walk(
      (cursor) => `${server.url}/api/v1/changes?limit=${LIMIT}&since=${cursor ?? since}`,
      (body: any) => ({ count: body.data.length, next: body.data.length === 0 ? null : body.next_cursor }),
    );
    const popular = await walk(
      (cursor) => `${server.url}/api/v1/sounds/popular?limit=${LIMIT}&cursor=${cursor ?? ''}`,
      (body: any) => ({ count: body.data.length, next: body.pagination.next_cursor }),
    );
    // The last, empty page of the changes is not a page of changes: the bare route gets as many requests as the search
    // walk has pages.
    let left = search.pages;
    const bareRun = await walk(
      () => `${bare.url}/`,
      () => ({ count: 1, next: --left > 0 ? 'more' : null }),
      false,
    );
    for (const [name, run] of Object.entries({ search, changes, popular, bare: bareRun })) {
      results[name]!.push(run);
      console.log(JSON.stringify({ round, walk: name, ...run }));
    }
  }
} finally {
  server.child.kill('SIGTERM');
  bare.child.kill();
  await rm(dataDir, { recursive: true, force: true });
}

console.log(
  `\n${SIZE.toLocaleString('en')} sounds, limit=${LIMIT}, one client, ` +
    `each request after the last; ${ROUNDS} rounds, each walk's best round.\n`,
);
console.log(
  '| walk | pages | sounds or changes | total s | pages/s | sounds/s | p50 ms | p99 ms | vs bare route, same round |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const names = {
  search: 'REST search by cursor',
  changes: 'GET /api/v1/changes',
  popular: 'GET /api/v1/sounds/popular by cursor',
  bare: 'bare Fastify route (one request per page)',
};
for (const [name, label] of Object.entries(names)) {
  const runs = results[name]!;
  const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const round = runs.indexOf(best);
  const ceiling = results.bare![round]!;
  const ratio = best.pages / best.seconds / (ceiling.pages / ceiling.seconds);
  console.log(
    `| ${label} | ${best.pages.toLocaleString('en')} | ` +
      `${best.sounds.toLocaleString('en')} | ${best.seconds.toFixed(2)} ` +
      `| ${Math.round(best.pages / best.seconds).toLocaleString('en')} ` +
      `| ${Math.round(best.sounds / best.seconds).toLocaleString('en')} ` +
      `| ${best.p50.toFixed(2)} | ${best.p99.toFixed(2)} | ${(ratio * 100).toFixed(1)}% |`,
  );
}

/**
 * Reads pages one after another from the first (cursor null) until `read` gives no next cursor
 * (or `maxPages` were read); times each request, body read and parsed included.
 */
async function walk(
  url: (cursor: string | null) => string,
  read: (body: unknown) => { count: number; next: string | null },
  withKey = true,
  maxPages = Infinity,
): Promise<Walk> {
  const times: number[] = [];
  let sounds = 0;
  let cursor: string | null = null;
  const started = performance.now();
  for (;;) {
    const sent = performance.now();
    const response = await fetch(url(cursor), withKey ? { headers } : {});
    if (response.status !== 200) throw new Error(`${url(cursor)}: ${response.status} ${await response.text()}`);
    const page = read(await response.json());
    times.push(performance.now() - sent);
    sounds += page.count;
    if (page.next === null || times.length >= maxPages) break;
    cursor = page.next;
  }
  const seconds = (performance.now() - started) / 1000;
  const sorted = times.sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  return { pages: times.length, sounds, seconds, p50: at(0.5), p99: at(0.99) };
}

/**
 * One change per sound in the log (an update that changes nothing: the triggers log it all the
 * same), written before the server starts, so that it follows from the newest; returns the cursor
 * of the change before them, where a mirror that was current before the edits would stand.
 */
function touchEverySound(dir: string): string {
  const db = new SQLite(path.join(dir, 'catalog.sqlite'));
  const before = (db.prepare('SELECT max(seq) AS seq FROM catalog_changes').get() as { seq: number }).seq;
  db.prepare('UPDATE sounds SET updated_at = updated_at').run();
  db.close();
  return encodeCursor('changes', before);
}
