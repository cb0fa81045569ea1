import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DecodeError, decodeAudio } from '../../../src/audio/decode/index.ts';
import { ffmpegConvert, hasFfmpeg, needsFfmpeg } from '../helpers/ffmpeg.ts';
import { seededRandom, uniformNoise } from '../helpers/signals.ts';
import { concat, writeWav } from '../helpers/wav.ts';

/** Seeded, so a failing mutation can be replayed from its seed. */
function mutate(bytes: Uint8Array, seed: number): Uint8Array {
  const next = seededRandom(seed);
  const copy = bytes.slice(0, Math.max(1, Math.floor(bytes.length * (next() < 0.3 ? next() : 1))));
  const flips = 1 + Math.floor(next() * 40);
  for (let i = 0; i < flips; i++) copy[Math.floor(next() * copy.length)] = Math.floor(next() * 256);
  return copy;
}

/**
 * Decoding hostile bytes may give audio or a DecodeError; anything else (a crash, a TypeError, a hang, console noise)
 * fails.
 */
async function assertHandled(bytes: Uint8Array, label: string) {
  try {
    const decoded = await decodeAudio(bytes);
    const length = decoded.channels[0]?.length ?? 0;
    assert.ok(
      decoded.channels.every((c) => c.length === length),
      `${label}: ragged channels`,
    );
  } catch (error) {
    assert.ok(error instanceof DecodeError, `${label}: threw ${String(error)}`);
  }
}

function withConsoleWatched(): { restore(): string[] } {
  const seen: string[] = [];
  const original = { error: console.error, warn: console.warn, log: console.log };
  console.error = console.warn = console.log = (...args: unknown[]) => void seen.push(args.map(String).join(' '));
  return {
    restore() {
      Object.assign(console, original);
      return seen;
    },
  };
}

const sources = () => {
  const wav = writeWav({ sampleRate: 44100, channels: [uniformNoise(20000, 0.5, 1), uniformNoise(20000, 0.5, 2)] });
  if (!hasFfmpeg) return { wav };
  return {
    wav,
    mp3: ffmpegConvert(wav, 'wav', ['-c:a', 'libmp3lame', '-q:a', '4'], 'mp3'),
    flac: ffmpegConvert(wav, 'wav', ['-c:a', 'flac'], 'flac'),
    ogg: ffmpegConvert(wav, 'wav', ['-c:a', 'libvorbis'], 'ogg'),
  };
};

test('hostile.mutated and truncated files decode or fail with DecodeError, silently', {
  ...needsFfmpeg,
  timeout: 120_000,
}, async () => {
  const watch = withConsoleWatched();
  try {
    for (const [format, bytes] of Object.entries(sources())) {
      for (let seed = 1; seed <= 60; seed++)
        await assertHandled(mutate(bytes, seed * 7919), `${format} seed ${seed * 7919}`);
    }
  } finally {
    assert.deepEqual(watch.restore(), [], 'decoders must not write to the console');
  }
});

test('hostile.MPEG frame headers with random payloads', async () => {
  const header = new Uint8Array([0xff, 0xfb, 0x90, 0x64]); // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz
  const frames = Array.from({ length: 50 }, (_, i) =>
    concat([header, Uint8Array.from(uniformNoise(413, 1, i + 1), (v) => (v + 1) * 127)]),
  );
  const watch = withConsoleWatched();
  try {
    await assertHandled(concat(frames), 'random payloads');
  } finally {
    watch.restore();
  }
});
