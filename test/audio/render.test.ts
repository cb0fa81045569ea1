import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeAudio } from '../../src/audio/analyze/index.ts';
import { decodeAudio, DecodeError } from '../../src/audio/decode/index.ts';
import { LookAheadLimiter } from '../../src/audio/limiter.ts';
import { playedAudio } from '../../src/audio/played-audio.ts';
import { renderRendition } from '../../src/audio/render.ts';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import type { PcmAudio } from '../../src/audio/types.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { writeLongMp3 } from './helpers/long-mp3.ts';
import { concat, dbToAmplitude, gaussianNoise, seededRandom } from './helpers/signals.ts';

const RATE = 48000;

/** Bytes this process has had from read() calls so far, cached or not (Linux's `rchar`). */
async function bytesReadByThisProcess(): Promise<number> {
  return Number(/^rchar: (\d+)$/m.exec(await readFile('/proc/self/io', 'utf8'))![1]);
}

function noise(frames: number, seed: number, amplitude: (i: number) => number): Float32Array {
  const next = gaussianNoise(seededRandom(seed));
  return Float32Array.from({ length: frames }, (_, i) => amplitude(i) * next());
}

/** Pushes `audio` through a limiter in pieces of the given sizes (cycled) and joins what comes out. */
function limitInPieces(audio: PcmAudio, ceilingDb: number, sizes: number[]): Float32Array[] {
  const limiter = new LookAheadLimiter(audio.sampleRate, audio.channels.length, ceilingDb);
  const parts: PcmAudio[] = [];
  const length = audio.channels[0]!.length;
  for (let at = 0, k = 0; at < length; k++) {
    const size = sizes[k % sizes.length]!;
    parts.push(
      limiter.push({ sampleRate: audio.sampleRate, channels: audio.channels.map((c) => c.subarray(at, at + size)) }),
    );
    at += size;
  }
  parts.push(limiter.flush());
  return audio.channels.map((_, c) => {
    const joined = new Float32Array(parts.reduce((n, part) => n + part.channels[c]!.length, 0));
    let offset = 0;
    for (const part of parts) {
      joined.set(part.channels[c]!, offset);
      offset += part.channels[c]!.length;
    }
    return joined;
  });
}

async function* chunksOf(audio: PcmAudio, size: number, pulled: { frames: number }): AsyncGenerator<PcmAudio> {
  for (let at = 0; at < audio.channels[0]!.length; at += size) {
    const chunk = { sampleRate: audio.sampleRate, channels: audio.channels.map((c) => c.slice(at, at + size)) };
    pulled.frames += chunk.channels[0]!.length;
    yield chunk;
  }
}

async function collect(chunks: AsyncIterable<PcmAudio>): Promise<Float32Array> {
  const parts: Float32Array[] = [];
  for await (const chunk of chunks) parts.push(chunk.channels[0]!);
  return concat(...parts);
}

describe('render.limiter: a streaming look-ahead limiter', () => {
  // Noise with loud bursts: 12 dB over the ceiling for 50 ms every half second.
  const length = 3 * RATE + 123;
  const loud = (i: number) => (i % (RATE / 2) < RATE / 20 ? 0.9 : 0.1);
  const audio = { sampleRate: RATE, channels: [noise(length, 1, loud), noise(length, 2, loud)] };

  test('gives every frame back once, the same whatever the chunking', () => {
    const whole = limitInPieces(audio, -6, [length]);
    assert.equal(whole[0]!.length, length);
    for (const sizes of [[1], [7, 4096, 239], [RATE]])
      assert.deepEqual(limitInPieces(audio, -6, sizes), whole, `pieces of ${sizes.join(', ')}`);
  });

  test('holds every sample at or under the ceiling, and changes audio under it not at all', () => {
    const ceiling = dbToAmplitude(-6);
    const limited = limitInPieces(audio, -6, [1000]);
    const peak = Math.max(...limited.map((channel) => channel.reduce((m, x) => Math.max(m, Math.abs(x)), 0)));
    assert.ok(peak <= ceiling * (1 + 1e-6), `peak ${peak} over the ceiling ${ceiling}`);
    assert.ok(peak > ceiling * 0.9, `the bursts are held near the ceiling, not crushed: ${peak}`);
    // Well before the first burst's look-ahead ends, well after its release: untouched.
    const quiet = { sampleRate: RATE, channels: audio.channels.map((c) => c.map((x) => x * 0.1)) };
    assert.deepEqual(limitInPieces(quiet, -6, [999]), quiet.channels);
  });
});

describe('render.played: the part of a sound a rendition plays', () => {
  const length = 30 * RATE;
  const audio = { sampleRate: RATE, channels: [noise(length, 3, () => 0.2), noise(length, 4, () => 0.2)] };

  test('a cut to maxMs fades out over its last quarter second and reads no further than it needs', async () => {
    const pulled = { frames: 0 };
    const played = await collect(
      playedAudio(chunksOf(audio, 4800, pulled), RATE, { trim: { startMs: 2000, endMs: 25_000 }, maxMs: 10_000 }),
    );
    assert.equal(played.length, 10 * RATE);
    assert.deepEqual(played.subarray(0, 9 * RATE), audio.channels[0]!.subarray(2 * RATE, 11 * RATE));
    assert.equal(Math.abs(played[played.length - 1]!), 0);
    const fadeStart = played.length - RATE / 4;
    assert.ok(
      Math.abs(
        played[fadeStart + 100]! / audio.channels[0]![2 * RATE + fadeStart + 100]! - (RATE / 4 - 101) / (RATE / 4),
      ) < 1e-6,
    );
    assert.ok(pulled.frames <= 12 * RATE + 4800, `read ${pulled.frames / RATE} s of a 30 s sound for 2 s + 10 s`);
  });

  test('a sound shorter than maxMs is kept whole, without a fade; a trim keeps its stretch', async () => {
    const pulled = { frames: 0 };
    assert.deepEqual(
      await collect(playedAudio(chunksOf(audio, 7000, pulled), RATE, { maxMs: 40_000 })),
      audio.channels[0],
    );
    const trimmed = await collect(
      playedAudio(chunksOf(audio, 7000, pulled), RATE, { trim: { startMs: 500, endMs: 1500 } }),
    );
    assert.deepEqual(trimmed, audio.channels[0]!.subarray(RATE / 2, RATE * 1.5));
  });
});

describe('render.file: renditions written to a file and measured on it', () => {
  let folder: string;
  let sourcePath: string;

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'render-'));
    sourcePath = path.join(folder, 'source.mp3');
    await writeFile(sourcePath, (await encodeAndMeasure(synthesizeSound('similar', 14).audio)).mp3);
  });
  after(() => rm(folder, { recursive: true, force: true }));

  test(
    'at a loudness target: within 0.5 LU, true peak at ' + "or under -1 dBTP, and the measurements are the file's",
    async () => {
      for (const target of [-16, -30, -10]) {
        const outputPath = path.join(folder, `out${target}.mp3`);
        const measurements = await renderRendition(sourcePath, outputPath, { loudness: target });
        const file = analyzeAudio(await decodeAudio(new Uint8Array(await readFile(outputPath))));
        assert.deepEqual(measurements, { duration: file.duration, loudness: file.loudness });
        assert.ok(
          Math.abs(file.loudness.integrated_lufs! - target) <= 0.5,
          `${target}: ${file.loudness.integrated_lufs} LUFS`,
        );
        assert.ok(file.loudness.true_peak_db! <= -1, `${target}: ${file.loudness.true_peak_db} dBTP`);
      }
      assert.deepEqual(
        (await readdir(folder)).filter((name) => name.endsWith('.attempt')),
        [],
        'no attempt is left behind',
      );
    },
  );

  test('a source that is not audio fails with a clear error and leaves no file', async () => {
    const notAudio = path.join(folder, 'not-audio.mp3');
    await writeFile(notAudio, 'hello, not an mp3 at all');
    const outputPath = path.join(folder, 'never.mp3');
    await assert.rejects(renderRendition(notAudio, outputPath, { loudness: -16 }), DecodeError);
    await assert.rejects(readFile(outputPath), { code: 'ENOENT' });
  });

  test('a preview of a long sound reads only its beginning: 10 s at the target, faded out', {
    skip: !existsSync('/proc/self/io') && 'needs /proc/self/io',
  }, async () => {
    const longPath = path.join(folder, 'long.mp3');
    await writeLongMp3(longPath, 30);
    const outputPath = path.join(folder, 'preview.mp3');
    const readBefore = await bytesReadByThisProcess();
    const measurements = await renderRendition(longPath, outputPath, {
      loudness: -16,
      trim: { startMs: 1000, endMs: 1_790_000 },
      maxMs: 10_000,
    });
    const read = (await bytesReadByThisProcess()) - readBefore;
    assert.ok(Math.abs(measurements.duration - 10) < 0.01, `${measurements.duration} s`);
    assert.ok(
      Math.abs(measurements.loudness.integrated_lufs! + 16) <= 0.5 && measurements.loudness.true_peak_db! <= -1,
      JSON.stringify(measurements),
    );
    // Every pass (loudness, each attempt) reads the source; reading it whole even once would be its size.
    const { size } = await stat(longPath);
    assert.ok(read < size / 4, `read ${read} bytes in all for a preview of an MP3 of ${size} bytes`);
  });
});
