/**
 * Pictures per second, first made and stored, and the memory of one by the sound's length:
 *   node --import tsx bench/pictures.ts [COUNT] [MINUTES...]   (default 20 demo sounds; 1 10 minutes)
 * 1. First make, in process on one thread (as a worker of the pool makes it): each demo sound's
 *    MP3 (made as ingest does) drawn as each picture; pictures per second, seconds of audio per
 *    second, PNG sizes.
 * 2. Stored: the same pictures through the real HTTP stack (GET /api/v1/sounds/{id}/*.png, a
 *    key, the quota), 8 requests at a time once each is made: pictures per second served.
 * 3. Memory: a spectrogram of a long stereo 48 kHz MP3 (test/audio/helpers/long-mp3.ts) in a
 *    child process of its own, its peak RSS, wall-clock and CPU time; 0 minutes is the child
 *    loading the code and drawing nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pictureOf, type PictureKind } from '../src/audio/pictures/index.ts';
import { synthesizeSound } from '../src/audio/synth/index.ts';
import { buildApp } from '../src/app.ts';
import { contentHashOf } from '../src/catalog/writer.ts';
import { loadConfig } from '../src/config.ts';
import { encodeAndMeasure } from '../src/ingest/measure.ts';
import { PICTURE_SIZES, type PictureSize } from '../src/media/picture-key.ts';
import { createServices } from '../src/wiring.ts';
import { writeLongMp3 } from '../test/audio/helpers/long-mp3.ts';

const KINDS: PictureKind[] = ['waveform', 'spectrogram'];
const SIZES: PictureSize[] = ['large', 'small'];

if (process.argv[2] === '--child') {
  const started = performance.now();
  const source = process.argv[3];
  const png = source ? await pictureOf(source, { kind: 'spectrogram', ...PICTURE_SIZES.large }) : new Uint8Array(0);
  const cpu = process.cpuUsage();
  console.log(
    JSON.stringify({
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      bytes: png.byteLength,
    }),
  );
} else {
  const count = Number(process.argv[2] ?? 20);
  const lengths = process.argv.length > 3 ? process.argv.slice(3).map(Number) : [1, 10];
  const folder = mkdtempSync(path.join(tmpdir(), 'bench-pictures-'));
  try {
    const sounds: Array<{ mp3: Uint8Array; mp3Path: string; duration: number; name: string }> = [];
    for (let index = 0; index < count; index++) {
      const synth = synthesizeSound('pictures', index);
      const { mp3, measurements } = await encodeAndMeasure(synth.audio);
      const mp3Path = path.join(folder, `${index}.mp3`);
      writeFileSync(mp3Path, mp3);
      sounds.push({ mp3, mp3Path, duration: measurements.duration, name: synth.name });
    }
    const audioSeconds = sounds.reduce((sum, sound) => sum + sound.duration, 0);
    console.log(`${count} sounds, ${audioSeconds.toFixed(0)} s of audio\n`);

    console.log('First make, one thread:');
    console.log('| picture | pictures/s | s of audio per s | PNG mean | PNG largest |\n|---|---|---|---|---|');
    for (const kind of KINDS) {
      for (const size of SIZES) {
        const bytes: number[] = [];
        const started = performance.now();
        for (const sound of sounds) {
          bytes.push((await pictureOf(sound.mp3Path, { kind, ...PICTURE_SIZES[size] })).byteLength);
        }
        const seconds = (performance.now() - started) / 1000;
        const mean = bytes.reduce((sum, n) => sum + n, 0) / bytes.length;
        console.log(
          `| ${kind} ${size} | ${(count / seconds).toFixed(1)} | ${(audioSeconds / seconds).toFixed(0)} | ` +
            `${(mean / 1024).toFixed(1)} KiB | ${(Math.max(...bytes) / 1024).toFixed(1)} KiB |`,
        );
      }
    }

    const dataDir = path.join(folder, 'data');
    const services = await createServices(
      loadConfig({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', PORT: '0' }),
    );
    const app = await buildApp(services, { logger: false });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    services.listeningAt(url);
    try {
      const account = await services.accounts.createAccount('bench@example.com', 'enterprise');
      const { key } = await services.accounts.createKey(account.id, 'bench');
      const ids: string[] = [];
      for (const sound of sounds) {
        const { id } = await services.catalogWriter.put({
          contentHash: contentHashOf(sound.mp3),
          mp3: sound.mp3,
          measurements: (await encodeAndMeasure(synthesizeSound('pictures', ids.length).audio)).measurements,
          metadata: { name: sound.name, description: null, tags: [], category: 'SFX', license: 'CC0', sample: false },
        });
        ids.push(id);
      }
      const targets = ids.flatMap((id) =>
        KINDS.flatMap((kind) => SIZES.map((size) => `${url}/api/v1/sounds/${id}/${kind}.png?size=${size}`)),
      );
      const get = async (target: string) => {
        const response = await fetch(target, { headers: { 'x-api-key': key } });
        if (response.status !== 200) throw new Error(`${target}: ${response.status}`);
        await response.arrayBuffer();
      };
      const inParallel = async (parallel: number) => {
        const queue = [...targets];
        const started = performance.now();
        await Promise.all(
          Array.from({ length: parallel }, async () => {
            for (let target = queue.shift(); target; target = queue.shift()) await get(target);
          }),
        );
        return targets.length / ((performance.now() - started) / 1000);
      };
      const concurrency = services.config.renditionsConcurrency;
      const made = await inParallel(8);
      const stored: number[] = [];
      for (let round = 0; round < 5; round++) stored.push(await inParallel(8));
      console.log(`\nThrough HTTP, 8 at a time (${targets.length} pictures, RENDITIONS_CONCURRENCY ${concurrency}):`);
      console.log(`| first make (worker pool) | stored (best of 5) |\n|---|---|`);
      console.log(`| ${made.toFixed(1)} pictures/s | ${Math.max(...stored).toFixed(0)} pictures/s |`);
    } finally {
      await app.close();
      await services.close();
    }

    console.log('\nMemory, one large spectrogram in a child process:');
    console.log('| sound | peak RSS | wall time | CPU time | PNG |\n|---|---|---|---|---|');
    const self = fileURLToPath(import.meta.url);
    for (const minutes of [0, ...lengths]) {
      const sourcePath = minutes > 0 ? path.join(folder, `${minutes}.mp3`) : '';
      if (minutes > 0) await writeLongMp3(sourcePath, minutes);
      const report = JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', self, '--child', sourcePath], {
          encoding: 'utf8',
        }),
      ) as { seconds: number; cpuSeconds: number; peakRssMb: number; bytes: number };
      console.log(
        `| ${minutes} min | ${report.peakRssMb.toFixed(0)} MB | ${report.seconds.toFixed(1)} s | ` +
          `${report.cpuSeconds.toFixed(1)} s | ${(report.bytes / 1024).toFixed(0)} KiB |`,
      );
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
