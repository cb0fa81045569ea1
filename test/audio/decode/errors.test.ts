import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertDecodeRejects as assertRejects } from '../helpers/decoding.ts';
import { uniformNoise } from '../helpers/signals.ts';
import { ascii, chunkHeader, concat, u32, writeWav } from '../helpers/wav.ts';

const tone = [uniformNoise(1000, 0.5, 1)];

test('errors.an empty file', () => assertRejects(new Uint8Array(0), /^empty file$/));

test('errors.random bytes are not a recognised audio file, and the name only adds a hint', async () => {
  for (let seed = 1; seed <= 20; seed++) {
    const bytes = Uint8Array.from(uniformNoise(5000 + seed * 37, 1, seed), (v) => Math.floor((v + 1) * 127.9));
    await assertRejects(bytes, /^not a recognised audio file/);
  }
  await assertRejects(
    ascii('hello world, not a wave'),
    /not a recognised audio file \(named \.wav but has no RIFF\/WAVE header\)/,
    'a.wav',
  );
});

test('errors.known formats we do not decode are named', async () => {
  await assertRejects(concat([ascii('caff'), u32(0x10000), new Uint8Array(100)]), /^unsupported audio format: CAF$/);
  await assertRejects(
    concat([u32(0x20000000), ascii('ftypM4A '), new Uint8Array(100)]),
    /^unsupported audio format: MP4\/M4A$/,
  );
});

test('errors.WAV header cut short', async () => {
  const wav = writeWav({ sampleRate: 44100, channels: tone });
  await assertRejects(wav.subarray(0, 12), /^truncated WAV header$/);
  await assertRejects(wav.subarray(0, 30), /^truncated WAV header$/);
});

test('errors.WAV data cut short', async () => {
  const wav = writeWav({ sampleRate: 44100, channels: tone });
  await assertRejects(wav.subarray(0, wav.length - 100), /^truncated WAV data: 50 of 1000 frames missing$/);
});

test('errors.WAV header claiming 2^32 samples fails fast without allocating them', async () => {
  const wav = writeWav({ sampleRate: 44100, channels: tone, encoding: 'float', dataSizeField: 0xfffffffc });
  const started = performance.now();
  await assertRejects(wav, /^truncated WAV data/);
  assert.ok(performance.now() - started < 1000);
});

test('errors.WAV with zero channels, zero rate, or an unsupported encoding', async () => {
  await assertRejects(writeWav({ sampleRate: 44100, channels: tone, channelCountField: 0 }), /^WAV has zero channels$/);
  await assertRejects(
    writeWav({ sampleRate: 44100, channels: tone, sampleRateField: 0 }),
    /^WAV has a zero sample rate$/,
  );
  await assertRejects(
    writeWav({ sampleRate: 44100, channels: tone, formatTag: 2 }),
    /^unsupported WAV encoding: Microsoft ADPCM \(0x0002\)$/,
  );
  await assertRejects(
    writeWav({ sampleRate: 44100, channels: tone, formatTag: 3, bits: 16 }),
    /^unsupported WAV encoding: 16-bit float$/,
  );
});

test('errors.WAV without a data chunk, or with data before its format', async () => {
  const fmtOnly = writeWav({ sampleRate: 8000, channels: tone }).subarray(0, 12 + 8 + 16);
  await assertRejects(fmtOnly, /^WAV has no data chunk$/);
  const dataFirst = concat([ascii('RIFF'), u32(100), ascii('WAVE'), chunkHeader('data', 4), new Uint8Array(4)]);
  await assertRejects(dataFirst, /^WAV data comes before its format chunk$/);
});

test('errors.an ID3 tag with no MPEG frames after it', async () => {
  const id3 = concat([
    ascii('ID3'),
    new Uint8Array([4, 0, 0, 0, 0, 0, 20]),
    new Uint8Array(20),
    ascii('just text, no audio at all'),
  ]);
  await assertRejects(id3, /^MP3 has no audio frames$/);
});

test('errors.damaged FLAC and Ogg headers', async () => {
  const streamInfo = new Uint8Array(34);
  streamInfo[12] = 0x02; // rate 0, 2 channels
  streamInfo[13] = 0xf0; // 16 bits
  await assertRejects(
    concat([ascii('fLaC'), new Uint8Array([0x80, 0, 0, 34]), streamInfo]),
    /^FLAC has a zero sample rate$/,
  );
  await assertRejects(
    concat([ascii('fLaC'), new Uint8Array([0x84, 0, 0, 34]), streamInfo]),
    /^damaged FLAC header: no STREAMINFO block$/,
  );
  await assertRejects(ascii('fLaC'), /^truncated FLAC header$/);
  const page = (packet: Uint8Array) =>
    concat([ascii('OggS'), new Uint8Array(22), new Uint8Array([1, packet.length]), packet]);
  await assertRejects(page(concat([ascii('OpusHead'), new Uint8Array(11)])), /^unsupported audio format: Ogg Opus$/);
  const vorbisId = concat([
    new Uint8Array([1]),
    ascii('vorbis'),
    u32(0),
    new Uint8Array([0]),
    u32(44100),
    new Uint8Array(14),
  ]);
  await assertRejects(page(vorbisId), /^Ogg Vorbis has zero channels$/);
  await assertRejects(page(ascii('something else')), /^unsupported Ogg stream: not Vorbis or FLAC$/);
});
