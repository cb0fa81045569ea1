import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DecodeError, decodeAudio } from '../../../src/audio/decode/index.ts';
import { readExtended } from '../../../src/audio/decode/aiff-header.ts';
import { extended, writeAiff, chunk } from '../helpers/aiff.ts';
import { assertDecodeRejects as assertRejects } from '../helpers/decoding.ts';
import { ffmpegConvert, ffmpegDecode, needsFfmpeg } from '../helpers/ffmpeg.ts';
import { exactSamples, uniformNoise } from '../helpers/signals.ts';
import { ascii, concat, writeWav } from '../helpers/wav.ts';

for (const bits of [8, 16, 24, 32] as const) {
  test(`aiff.decodes ${bits}-bit big-endian PCM exactly`, async () => {
    const channels = [exactSamples(bits, 1000, 1), exactSamples(bits, 1000, 2)];
    const decoded = await decodeAudio(writeAiff({ sampleRate: 44100, channels, bits }));
    assert.equal(decoded.format, 'aiff');
    assert.equal(decoded.sampleRate, 44100);
    assert.deepEqual(decoded.channels, channels);
  });
}

test('aiff.AIFF-C: NONE and twos are big-endian, sowt is little-endian', async () => {
  for (const [compression, bits] of [
    ['NONE', 16],
    ['twos', 24],
    ['sowt', 16],
    ['sowt', 24],
    ['sowt', 32],
  ] as const) {
    const channels = [exactSamples(bits, 700, 3)];
    const decoded = await decodeAudio(writeAiff({ sampleRate: 48000, channels, bits, compression }));
    assert.deepEqual(decoded.channels, channels, `${compression} ${bits}-bit`);
  }
});

test('aiff.12-bit samples are left-justified in two bytes', async () => {
  const channels = [exactSamples(12, 400, 4)];
  const decoded = await decodeAudio(writeAiff({ sampleRate: 22050, channels, bits: 12 }));
  assert.deepEqual(decoded.channels, channels);
});

test('aiff.the 80-bit extended sample rate reads back for common and odd rates', async () => {
  for (const rate of [8000, 11025, 22050, 44100, 48000, 88200, 96000, 192000, 1])
    assert.equal(readExtended(extended(rate)), rate);
  // The classic Macintosh rate 22254.5454... is not an integer: it is rounded to one.
  assert.equal(Math.round(readExtended(extended(22254.545454))), 22255);
  const decoded = await decodeAudio(writeAiff({ sampleRate: 96000, channels: [exactSamples(16, 10, 5)] }));
  assert.equal(decoded.sampleRate, 96000);
});

test('aiff.text and unknown chunks before the sound data are skipped', async () => {
  const channels = [exactSamples(16, 300, 6)];
  const aiff = writeAiff({
    sampleRate: 8000,
    channels,
    chunksBeforeSound: [
      ['NAME', ascii('odd')],
      ['ANNO', ascii('a note')],
      ['MARK', new Uint8Array(2)],
    ],
  });
  assert.deepEqual((await decodeAudio(aiff)).channels, channels);
});

test('aiff.errors: other compressions are named, bad headers and cut data are DecodeErrors', async () => {
  const tone = [uniformNoise(1000, 0.5, 7)];
  await assertRejects(
    writeAiff({ sampleRate: 44100, channels: tone, compression: 'ulaw' }),
    /^unsupported AIFF-C compression: 'ulaw' \(µ-law\)$/,
  );
  await assertRejects(
    writeAiff({ sampleRate: 44100, channels: tone, compression: 'ima4' }),
    /^unsupported AIFF-C compression: 'ima4' \(IMA ADPCM\)$/,
  );
  await assertRejects(
    writeAiff({ sampleRate: 44100, channels: tone, compression: 'zzzz' }),
    /^unsupported AIFF-C compression: 'zzzz'$/,
  );
  await assertRejects(
    writeAiff({ sampleRate: 44100, channels: tone, soundFirst: true }),
    /^AIFF sound data comes before its COMM chunk$/,
  );
  await assertRejects(writeAiff({ sampleRate: 0, channels: tone }), /^AIFF has a zero sample rate$/);
  await assertRejects(
    writeAiff({ sampleRate: 44100, channels: tone, bits: 40 as 32 }),
    /^unsupported AIFF: 40-bit samples$/,
  );
  const whole = writeAiff({ sampleRate: 44100, channels: tone });
  await assertRejects(whole.subarray(0, 20), /^truncated AIFF header$/);
  await assertRejects(whole.subarray(0, whole.length - 100), /^truncated AIFF data: 50 of 1000 frames missing$/);
  const commOnly = concat([
    ascii('FORM'),
    new Uint8Array(4),
    ascii('AIFF'),
    chunk('COMM', writeAiff({ sampleRate: 8000, channels: tone }).subarray(20, 38)),
  ]);
  await assertRejects(commOnly, /^AIFF has no SSND chunk$/);
  await assert.rejects(
    decodeAudio(ascii('not an aiff at all'), 'take.aiff'),
    /not a recognised audio file \(named \.aiff but has no FORM\/AIFF header\)/,
  );
});

test('aiff.a COMM claiming 2^32 frames reads only what the sound chunk holds, fast', async () => {
  const started = performance.now();
  const channels = [exactSamples(16, 100, 8)];
  const decoded = await decodeAudio(writeAiff({ sampleRate: 44100, channels, frameCountField: 0xffffffff }));
  assert.deepEqual(decoded.channels, channels);
  assert.ok(performance.now() - started < 1000);
});

test('aiff.mutated and truncated files decode or fail with DecodeError', async () => {
  const aiff = writeAiff({
    sampleRate: 44100,
    channels: [uniformNoise(5000, 0.5, 9), uniformNoise(5000, 0.5, 10)],
    bits: 24,
    chunksBeforeSound: [['NAME', ascii('n')]],
  });
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let round = 0; round < 80; round++) {
    const copy = aiff.slice(0, Math.max(1, Math.floor(aiff.length * (next() < 0.3 ? next() : 1))));
    for (let flips = 1 + Math.floor(next() * 20); flips > 0; flips--)
      copy[Math.floor(next() * Math.min(copy.length, 120))] = Math.floor(next() * 256);
    try {
      const decoded = await decodeAudio(copy);
      assert.ok(decoded.channels.every((c) => c.length === decoded.channels[0]!.length));
    } catch (error) {
      assert.ok(error instanceof DecodeError, `round ${round}: threw ${String(error)}`);
    }
  }
});

test('aiff.matches ffmpeg on an AIFF ffmpeg wrote', needsFfmpeg, async () => {
  const channels = [exactSamples(16, 4000, 11), exactSamples(16, 4000, 12)];
  const aiff = ffmpegConvert(writeWav({ sampleRate: 44100, channels }), 'wav', ['-c:a', 'pcm_s16be'], 'aiff');
  const decoded = await decodeAudio(aiff);
  assert.deepEqual(decoded.channels, ffmpegDecode(aiff, 'aiff', 2));
  assert.deepEqual(decoded.channels, channels);
});
