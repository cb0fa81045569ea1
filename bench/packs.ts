/**
 * Pack streaming, 100 sounds:  node --import tsx bench/packs.ts
 * (BENCH_SOUND_KB, default 1024: each sound's file size; BENCH_ROUNDS, default 3).
 *
 * Starts the server in this process on SQLite and a media folder (test/helpers/server.ts), puts
 * 100 sounds of BENCH_SOUND_KB made-up bytes into the catalog, asks GET /api/v1/packs for all of
 * them and reads the ZIP from its URL as fast as it comes, while sampling the process's RSS and
 * heap every 20 ms. Prints, per round, the ZIP's size, MB/s, and the peak RSS and heap above
 * what they were before the download; then the same with the client reading slowly (64 KB every
 * 10 ms), where backpressure must keep memory flat.
 */
import { startServer } from '../test/helpers/server.ts';
import { addSound } from '../test/helpers/sounds.ts';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const SOUND_KB = Number(process.env.BENCH_SOUND_KB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOUNDS = 100;

const server = await startServer();
const { key } = await server.account('enterprise');
const ids: string[] = [];
for (let i = 0; i < SOUNDS; i++) {
  ids.push((await addSound(server.services, { name: `Bench Sound ${i}`, bytes: new Uint8Array(randomBytes(SOUND_KB * 1024)) })).id);
}

async function round(slow: boolean) {
  const answer = await server.get(`/api/v1/packs?ids=${ids.join(',')}`, { key });
  if (answer.status !== 200) throw new Error(`pack answered ${answer.status}: ${await answer.text()}`);
  const { data } = (await answer.json()) as { data: { download_url: string; estimated_bytes: number } };
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 20);
  const started = performance.now();
  const response = await fetch(data.download_url);
  let bytes = 0;
  for await (const chunk of response.body!) {
    bytes += (chunk as Uint8Array).length;
    if (slow && bytes % (64 * 1024) < (chunk as Uint8Array).length) await sleep(10);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const mb = (value: number) => (value / 1024 / 1024).toFixed(1);
  console.log(`${slow ? 'slow client' : 'fast client'}: ${mb(bytes)} MB (estimated ${mb(data.estimated_bytes)}) in ${seconds.toFixed(2)} s, `
    + `${(bytes / 1024 / 1024 / seconds).toFixed(0)} MB/s; peak RSS +${mb(peakRss - base.rss)} MB, peak heap +${mb(peakHeap - base.heapUsed)} MB `
    + `(RSS ${mb(base.rss)} MB before)`);
}

console.log(`${SOUNDS} sounds of ${SOUND_KB} KB each, node ${process.version}`);
for (let i = 0; i < ROUNDS; i++) await round(false);
await round(true);
await server.close();
