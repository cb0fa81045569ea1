import assert from 'node:assert/strict';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeAudio } from '../../../src/audio/decode/index.ts';
import { createMp3Encoder, createMp3FileEncoder, encodeMp3 } from '../../../src/audio/encode/index.ts';
import { uniformNoise } from '../helpers/signals.ts';

function pieces(channels: Float32Array[], sampleRate: number, size: number) {
  const out = [];
  for (let offset = 0; offset < channels[0]!.length; offset += size) {
    out.push({ sampleRate, channels: channels.map((c) => c.subarray(offset, offset + size)) });
  }
  return out;
}

test('stream-encode.pushing chunks of any size gives the same bytes as one call', async () => {
  for (const sampleRate of [44100, 96000]) {
    const channels = [uniformNoise(100_003, 0.3, 1), uniformNoise(100_003, 0.3, 2)];
    const whole = await encodeMp3({ sampleRate, channels });
    const encoder = await createMp3Encoder({ sampleRate, channelCount: 2 });
    for (const chunk of pieces(channels, sampleRate, 4097)) await encoder.push(chunk);
    assert.deepEqual(await encoder.finish(), whole, `${sampleRate} Hz`);
  }
});

test('stream-encode.writes to a file handle and patches the tag frame in at the end', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mp3-encode-'));
  try {
    const channels = [uniformNoise(50_000, 0.3, 3)];
    const path = join(dir, 'out.mp3');
    const file = await open(path, 'w');
    let written: number;
    try {
      const encoder = await createMp3FileEncoder(file, { sampleRate: 48000, channelCount: 1 });
      assert.equal(encoder.channelCount, 1);
      for (const chunk of pieces(channels, 48000, 10_000)) await encoder.push(chunk);
      written = await encoder.finish();
    } finally {
      await file.close();
    }
    const bytes = new Uint8Array(await readFile(path));
    assert.equal(written, bytes.length);
    assert.deepEqual(bytes, await encodeMp3({ sampleRate: 48000, channels }));
    assert.equal((await decodeAudio(bytes)).channels[0]!.length, 50_000);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('stream-encode.reports the MP3 format it writes', async () => {
  const encoder = await createMp3Encoder({ sampleRate: 88200, channelCount: 6 });
  assert.equal(encoder.sampleRate, 44100);
  assert.equal(encoder.channelCount, 2);
});

test('stream-encode.rejects bad options and chunks that do not match', async () => {
  const format = { sampleRate: 44100, channelCount: 2 };
  await assert.rejects(createMp3Encoder(format, { vbrQuality: 10 }), RangeError);
  await assert.rejects(createMp3Encoder(format, { vbrQuality: -1 }), RangeError);
  await assert.rejects(createMp3Encoder(format, { bitrate: 100 }), RangeError);
  await assert.rejects(createMp3Encoder({ sampleRate: 0, channelCount: 1 }), RangeError);
  await assert.rejects(createMp3Encoder({ sampleRate: 44100, channelCount: 0 }), RangeError);
  const encoder = await createMp3Encoder(format);
  await assert.rejects(
    encoder.push({ sampleRate: 48000, channels: [new Float32Array(10), new Float32Array(10)] }),
    RangeError,
  );
  await assert.rejects(encoder.push({ sampleRate: 44100, channels: [new Float32Array(10)] }), RangeError);
  await assert.rejects(
    encoder.push({ sampleRate: 44100, channels: [new Float32Array(10), new Float32Array(9)] }),
    RangeError,
  );
});

test('stream-encode.NaN and infinite samples are encoded as silence', async () => {
  const channel = uniformNoise(10_000, 0.3, 4);
  channel[100] = Number.NaN;
  channel[200] = Number.POSITIVE_INFINITY;
  const decoded = await decodeAudio(await encodeMp3({ sampleRate: 44100, channels: [channel] }));
  assert.equal(decoded.channels[0]!.length, 10_000);
  assert.ok(decoded.channels[0]!.every(Number.isFinite));
});
