/**
 * Renditions per second per format through the real HTTP stack (issue 30):
 *   node --import tsx bench/formats.ts [SOUNDS] [CLIENTS]   (default 8 demo sounds, 2 clients)
 * Each synthesized sound is asked for in every format at -16 LUFS (so every URL is a new
 * rendition, leveled and measured), CLIENTS requests in flight at once; per format, the
 * renditions made per second, the seconds of audio made per second of wall time, and the
 * mean file size.
 */
import { synthesizeSound } from '../src/audio/synth/index.ts';
import { contentHashOf } from '../src/catalog/writer.ts';
import { encodeAndMeasure } from '../src/ingest/measure.ts';
import { startServer } from '../test/helpers/server.ts';

const soundCount = Number(process.argv[2] ?? 8);
const clients = Number(process.argv[3] ?? 2);
const FORMATS = ['mp3', 'wav', 'wav&bit_depth=24', 'flac', 'flac&bit_depth=24', 'ogg', 'opus'];

const server = await startServer();
try {
  const { key } = await server.account('enterprise');
  const ids: string[] = [];
  let audioSeconds = 0;
  for (let index = 0; index < soundCount; index++) {
    const sound = synthesizeSound('formats-bench', index);
    const { mp3, measurements } = await encodeAndMeasure(sound.audio);
    audioSeconds += measurements.duration;
    const { id } = await server.services.catalogWriter.put({
      contentHash: contentHashOf(mp3),
      mp3,
      measurements,
      metadata: { name: `Bench ${index}`, description: null, tags: [], category: 'SFX', license: 'CC0', sample: false },
    });
    ids.push(id);
  }
  console.log(`${soundCount} sounds, ${audioSeconds.toFixed(1)} s of audio in all, ${clients} clients`);
  console.log('| format | renditions/s | audio s per s | mean file |');
  console.log('|---|---|---|---|');
  for (const format of FORMATS) {
    const urls: string[] = [];
    for (const id of ids) {
      const response = await server.get(`/api/v1/sounds/${id}/stream?loudness=-16&format=${format}`, { key });
      urls.push(((await response.json()) as { data: { stream_url: string } }).data.stream_url);
    }
    let bytes = 0;
    const started = performance.now();
    const queue = [...urls];
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let url = queue.shift(); url; url = queue.shift()) {
          const response = await fetch(url);
          if (response.status !== 200) throw new Error(`${format}: ${response.status}`);
          bytes += (await response.arrayBuffer()).byteLength;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `| ${format.replace('&bit_depth=', ', ')} | ${(urls.length / seconds).toFixed(2)} | ` +
        `${(audioSeconds / seconds).toFixed(1)} | ${(bytes / urls.length / 1024).toFixed(0)} KiB |`,
    );
  }
} finally {
  await server.close();
}
