/**
 * Renditions per second through the real HTTP stack, with the limits on (RENDITIONS_CONCURRENCY
 * threads, 64 waiting, 10 requests of quota each, the byte cap):
 *   node --import tsx bench/rendition-limits.ts [SOUNDS] [CLIENTS]   (default 20 demo sounds, 8 clients)
 * Each sound is asked for at four whole-LU targets, every URL a new rendition; CLIENTS requests
 * are in flight at once. Prints renditions made per second, 503s, and the renditions' counts.
 */
import { synthesizeSound } from '../src/audio/synth/index.ts';
import { contentHashOf } from '../src/catalog/writer.ts';
import { encodeAndMeasure } from '../src/ingest/measure.ts';
import { startServer } from '../test/helpers/server.ts';

const soundCount = Number(process.argv[2] ?? 20);
const clients = Number(process.argv[3] ?? 8);
const server = await startServer();
try {
  const { key } = await server.account('enterprise');
  const urls: string[] = [];
  let audioSeconds = 0;
  for (let index = 0; index < soundCount; index++) {
    const sound = synthesizeSound('rendition-limits', index);
    const { mp3, measurements } = await encodeAndMeasure(sound.audio);
    audioSeconds += measurements.duration;
    const { id } = await server.services.catalogWriter.put({
      contentHash: contentHashOf(mp3),
      mp3,
      measurements,
      metadata: { name: `Bench ${index}`, description: null, tags: [], category: 'SFX', license: 'CC0', sample: false },
    });
    for (const lufs of [-14, -16, -20, -23]) {
      const response = await server.get(`/api/v1/sounds/${id}/stream?loudness=${lufs}`, { key });
      urls.push(((await response.json()) as { data: { stream_url: string } }).data.stream_url);
    }
  }
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < urls.length) {
        const response = await fetch(urls[next++]!);
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const stats = await server.services.renditions.stats();
  console.log(
    `${soundCount} sounds (${audioSeconds.toFixed(0)} s of ` +
      `audio), ${urls.length} new renditions, ${clients} clients, ` +
      `RENDITIONS_CONCURRENCY=${server.services.config.renditionsConcurrency}`,
  );
  console.log(
    `${(stats.made / seconds).toFixed(1)} renditions/s (${stats.made} made in ` +
      `${seconds.toFixed(1)} s); answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
      `stored ${(stats.bytes / 1024).toFixed(0)} KiB`,
  );
} finally {
  await server.close();
}
