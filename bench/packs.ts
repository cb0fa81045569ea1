/**
 * Pack streaming, 100 sounds:  node --expose-gc --import tsx bench/packs.ts [FORMAT]
 * (BENCH_SOUND_KB, default 1024: each sound's file size; BENCH_SOUNDS, default 100; BENCH_ROUNDS, default 3).
 *
 * Starts the server in this process on SQLite and a media folder (test/helpers/server.ts), puts
 * BENCH_SOUNDS sounds of BENCH_SOUND_KB made-up bytes into the catalog, asks GET /api/v1/packs for all of
 * them and reads the ZIP from its URL as fast as it comes, while sampling the process's RSS and
 * heap every 20 ms. Prints, per round, the ZIP's size, MB/s, and the peak RSS and heap above
 * what they were before the download; then the same with the client reading slowly (64 KB every
 * 10 ms), where backpressure must keep memory flat.
 *
 * With FORMAT (wav, flac, ogg, opus) the sounds are real MP3s (synthesized, a few seconds each,
 * BENCH_SOUND_KB ignored) and the pack asks for that format: the first round makes every
 * rendition while it streams, the later ones serve them stored.
 */
import { startServer } from '../test/helpers/server.ts';
import { addSound } from '../test/helpers/sounds.ts';
import { randomBytes } from 'node:crypto';
import { synthesizeSound } from '../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../src/ingest/measure.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const SOUND_KB = Number(process.env.BENCH_SOUND_KB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOUNDS = Number(process.env.BENCH_SOUNDS ?? 100);
const FORMAT = process.argv[2];

const server = await startServer();
const { key } = await server.account('enterprise');
const ids: string[] = [];
for (let i = 0; i < SOUNDS; i++) {
  if (FORMAT === undefined) {
    ids.push(
      (
        await addSound(server.services, {
          name: `Bench Sound ${i}`,
          bytes: new Uint8Array(randomBytes(SOUND_KB * 1024)),
        })
      ).id,
    );
  } else {
    const { mp3, measurements } = await encodeAndMeasure(synthesizeSound('bench-packs', i).audio);
    ids.push((await addSound(server.services, { name: `Bench Sound ${i}`, bytes: mp3, ...measurements })).id);
  }
}

async function round(slow: boolean, first = false) {
  const answer = await server.get(
    `/api/v1/packs?ids=${ids.join(',')}${FORMAT === undefined ? '' : `&format=${FORMAT}`}`,
    { key },
  );
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
  console.log(
    `${slow ? 'slow client' : 'fast client'}` +
      `${first && FORMAT !== undefined ? ' (renditions made while it streams)' : ''}: ${mb(bytes)} MB ` +
      `(estimated ${mb(data.estimated_bytes)}) in ${seconds.toFixed(2)} s, ` +
      `${(bytes / 1024 / 1024 / seconds).toFixed(0)} MB/s; peak RSS ` +
      `+${mb(peakRss - base.rss)} MB, peak heap +${mb(peakHeap - base.heapUsed)} MB ` +
      `(RSS ${mb(base.rss)} MB before)`,
  );
}

console.log(
  `${SOUNDS} sounds ${FORMAT === undefined ? `of ${SOUND_KB} KB each` : `as ${FORMAT} from real MP3s`}, ` +
    `node ${process.version}`,
);
for (let i = 0; i < ROUNDS; i++) await round(false, i === 0);
await round(true);
await server.close();
