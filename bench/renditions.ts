/**
 * Renditions per second, in process (one thread, as the media route's worker):
 *   node --import tsx bench/renditions.ts [COUNT]   (default 60 demo sounds, seed "renditions")
 * Each sound is made into its MP3 as ingest does, then rendered three ways: at -16 LUFS, trimmed,
 * and both; the table gives renditions per second and per second of audio, and how many ended
 * within 0.5 LU of the target with the true peak at or under -1 dBTP.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderRendition, type RenditionSpec } from '../src/audio/render.ts';
import { synthesizeSound } from '../src/audio/synth/index.ts';
import type { AudioMeasurements } from '../src/audio/types.ts';
import { encodeAndMeasure } from '../src/ingest/measure.ts';

const count = Number(process.argv[2] ?? 60);
const sounds: Array<{ mp3Path: string; measurements: AudioMeasurements }> = [];
const folder = mkdtempSync(path.join(tmpdir(), 'bench-renditions-'));
for (let index = 0; index < count; index++) {
  const { mp3, measurements } = await encodeAndMeasure(synthesizeSound('renditions', index).audio);
  const mp3Path = path.join(folder, `${index}.mp3`);
  writeFileSync(mp3Path, mp3);
  sounds.push({ mp3Path, measurements });
}
const audioSeconds = sounds.reduce((sum, sound) => sum + sound.measurements.duration, 0);
console.log(`${count} sounds, ${audioSeconds.toFixed(0)} s of audio`);
console.log('| rendition | renditions/s | s of audio per s | within 0.5 LU and <= -1 dBTP |\n|---|---|---|---|');
for (const [name, specOf] of [
  ['loudness -16 LUFS', () => ({ loudness: -16 })],
  ['trim', (m) => ({ trim: { startMs: m.timing.onset_ms ?? 0, endMs: m.timing.tail_ms ?? m.duration * 1000 } })],
  [
    'loudness -16 LUFS and trim',
    (m) => ({ loudness: -16, trim: { startMs: m.timing.onset_ms ?? 0, endMs: m.timing.tail_ms ?? m.duration * 1000 } }),
  ],
] as Array<[string, (m: AudioMeasurements) => RenditionSpec]>) {
  let onTarget = 0;
  const started = performance.now();
  for (const { mp3Path, measurements } of sounds) {
    const spec = specOf(measurements);
    const { loudness } = await renderRendition(mp3Path, path.join(folder, 'rendition.mp3'), spec);
    if (
      spec.loudness === undefined ||
      (Math.abs(loudness.integrated_lufs! - spec.loudness) <= 0.5 && loudness.true_peak_db! <= -1)
    )
      onTarget++;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `| ${name} | ${(count / seconds).toFixed(1)} | ${(audioSeconds / seconds).toFixed(0)} | ${onTarget}/${count} |`,
  );
}
