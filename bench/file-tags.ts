/**
 * What writing a sound's tags into a delivered file costs (src/media/tags, issue 40), per format:
 *   node --import tsx bench/file-tags.ts [ROUNDS]   (default 2000 files per format)
 * The stored files are renditions our encoders make of a 10-second stereo tone (the catalog's MP3
 * as is, WAV, FLAC, Ogg Vorbis, Opus), with a sound of a long description, tags and a loop. Two
 * figures per format, the median of five runs: the head writer alone (CPU: parse the stored head,
 * write the new one), and what the media route does per request on a folder store (read the
 * stored head from disk, build the tags, write the head, hash it for the ETag). Files sit in the
 * page cache, so the second figure is the work, not the disk.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderRendition } from '../src/audio/render.ts';
import type { OutputFormat } from '../src/audio/encode/output-format.ts';
import type { StoredSound } from '../src/catalog/sound.ts';
import { encodeAndMeasure } from '../src/ingest/measure.ts';
import { FolderStore } from '../src/media/folder-store.ts';
import { deliveredFile, tagsForDelivery } from '../src/media/tagged-file.ts';
import { fileTagsOf, tagHead } from '../src/media/tags/index.ts';

const ROUNDS = Number(process.argv[2] ?? 2000);
const RUNS = 5;
const SECONDS = 10;
const RATE = 44_100;

const dir = await mkdtemp(path.join(tmpdir(), 'bench-file-tags-'));
try {
  const frames = SECONDS * RATE;
  const channel = (phase: number) =>
    Float32Array.from({ length: frames }, (_, i) => 0.3 * Math.sin(phase + (2 * Math.PI * 440 * i) / RATE));
  const { mp3, measurements } = await encodeAndMeasure({ sampleRate: RATE, channels: [channel(0), channel(1)] });
  const store = new FolderStore(dir);
  await store.prepareScratchFolder();
  await store.put('source.mp3', mp3);
  await writeFile(path.join(dir, 'source.mp3'), mp3);
  const sound = {
    id: 'snd_bench',
    name: 'Engine Idle Loop, Small Boat',
    description: 'A small outboard engine idling at the dock, water lapping. '.repeat(8),
    tags: ['engine', 'boat', 'idle', 'loop', 'water'],
    category: 'AMBIENT',
    license: 'CC0',
    createdAt: '2025-03-04T05:06:07.000Z',
    timing: measurements.timing,
    fileKey: 'source.mp3',
    fileSize: mp3.length,
    loop: { startSample: 4410, endSample: 400_000 },
  } as unknown as StoredSound;
  const baseUrl = 'https://sounds.example.org';
  console.log(`${ROUNDS} files per format, median of ${RUNS} runs`);
  console.log(
    '| format | stored head bytes | head writer alone, µs per file | per request on a folder store, µs per file |',
  );
  console.log('|---|---|---|---|');
  for (const format of ['mp3', 'wav', 'flac', 'ogg', 'opus'] as const satisfies OutputFormat[]) {
    const key = `file.${format}`;
    let bytes = Buffer.from(mp3);
    if (format !== 'mp3') {
      const file = path.join(dir, `made.${format}`);
      await renderRendition(path.join(dir, 'source.mp3'), file, { output: { format } });
      bytes = await readFile(file);
    }
    await store.put(key, bytes);
    const choice = format === 'mp3' ? {} : { format };
    const tags = fileTagsOf(sound, { baseUrl, loop: { startSample: 4410, endSample: 400_000 }, sourceRate: RATE });
    const { audioStart } = tagHead(format, bytes, bytes.length, tags);
    const alone = median(RUNS, () => {
      for (let i = 0; i < ROUNDS; i++) tagHead(format, bytes, bytes.length, tags);
    });
    const perRequest = await medianAsync(RUNS, async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const built = await tagsForDelivery(store, sound, choice, baseUrl);
        await deliveredFile(store, key, bytes.length, format, built);
      }
    });
    console.log(
      `| ${format} | ${audioStart} | ${((alone * 1000) / ROUNDS).toFixed(1)} | ${((perRequest * 1000) / ROUNDS).toFixed(1)} |`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

function median(runs: number, work: () => void): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function medianAsync(runs: number, work: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}
