import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeAudio } from '../../../src/audio/decode/index.ts';
import { ffmpegDecode, needsFfmpeg } from '../helpers/ffmpeg.ts';
import { exactSamples, sine } from '../helpers/signals.ts';
import { ascii, chunkHeader, concat, u32, writeWav } from '../helpers/wav.ts';

for (const [encoding, bits] of [
  ['pcm', 8],
  ['pcm', 16],
  ['pcm', 24],
  ['pcm', 32],
  ['float', 32],
  ['float', 64],
] as const) {
  test(`wav.decodes ${bits}-bit ${encoding} exactly`, async () => {
    const channels = [exactSamples(bits, 1000, 1), exactSamples(bits, 1000, 2)];
    const decoded = await decodeAudio(writeWav({ sampleRate: 44100, channels, encoding, bits }));
    assert.equal(decoded.format, 'wav');
    assert.equal(decoded.sampleRate, 44100);
    assert.equal(decoded.gapless, null);
    assert.deepEqual(decoded.channels, channels);
  });
}

test('wav.reads WAVE_FORMAT_EXTENSIBLE with any channel count', async () => {
  const channels = Array.from({ length: 6 }, (_, c) => exactSamples(24, 500, c + 1));
  const decoded = await decodeAudio(writeWav({ sampleRate: 96000, channels, bits: 24, extensible: true }));
  assert.equal(decoded.sampleRate, 96000);
  assert.deepEqual(decoded.channels, channels);
});

test('wav.skips LIST and odd-sized chunks before the data', async () => {
  const channels = [exactSamples(16, 300, 3)];
  const chunksBeforeData: Array<[string, Uint8Array]> = [
    ['LIST', concat([ascii('INFOINAM'), u32(5), ascii('hello'), new Uint8Array(1)])],
    ['odd ', new Uint8Array(7).fill(0x55)],
    ['fact', u32(300)],
  ];
  const decoded = await decodeAudio(writeWav({ sampleRate: 8000, channels, chunksBeforeData }));
  assert.deepEqual(decoded.channels, channels);
});

test('wav.tolerates a writer that forgot the pad byte after an odd chunk', async () => {
  const channels = [exactSamples(16, 100, 4)];
  const proper = writeWav({ sampleRate: 8000, channels, chunksBeforeData: [['odd ', new Uint8Array(3).fill(9)]] });
  // Remove the pad byte: it sits right after the 3-byte body, before "data".
  const padAt = 12 + 8 + 16 + 8 + 3;
  const unpadded = concat([proper.subarray(0, padAt), proper.subarray(padAt + 1)]);
  assert.deepEqual((await decodeAudio(unpadded)).channels, channels);
});

for (const size of [0, 0xffffffff]) {
  test(
    // biome-ignore lint/style/useTemplate: a test name split to stay within 120 columns
    `wav.reads to the end of the file when the data ` + `size is 0x${size.toString(16)} (streaming writers)`,
    async () => {
      const channels = [exactSamples(16, 777, 5), exactSamples(16, 777, 6)];
      const decoded = await decodeAudio(writeWav({ sampleRate: 22050, channels, dataSizeField: size }));
      assert.deepEqual(decoded.channels, channels);
    },
  );
}

test('wav.drops a trailing partial frame when the size is open', async () => {
  const channels = [exactSamples(16, 10, 7), exactSamples(16, 10, 8)];
  const bytes = concat([writeWav({ sampleRate: 8000, channels, dataSizeField: 0 }), new Uint8Array(3)]);
  assert.deepEqual((await decodeAudio(bytes)).channels, channels);
});

test('wav.reads RF64 files whose sizes live in the ds64 chunk', async () => {
  const channels = [exactSamples(16, 64, 9)];
  const plain = writeWav({ sampleRate: 8000, channels, dataSizeField: 0xffffffff });
  const ds64 = new Uint8Array(28);
  new DataView(ds64.buffer).setUint32(8, 128, true); // data size, low word
  const rf64 = concat([
    ascii('RF64'),
    u32(0xffffffff),
    ascii('WAVE'),
    chunkHeader('ds64', 28),
    ds64,
    plain.subarray(12),
  ]);
  assert.deepEqual((await decodeAudio(rf64)).channels, channels);
});

test('wav.matches ffmpeg on a 5.1 float file it wrote', needsFfmpeg, async () => {
  const source = Array.from({ length: 6 }, (_, c) => sine(48000, 200 * (c + 1), -20 + 3 * c, 4800));
  const wav = writeWav({ sampleRate: 48000, channels: source, encoding: 'float', extensible: true });
  const reference = ffmpegDecode(wav, 'wav', 6);
  const decoded = await decodeAudio(wav);
  assert.deepEqual(decoded.channels, reference);
});
