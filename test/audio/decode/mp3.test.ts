import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MPEGDecoder } from 'mpg123-decoder';
import { decodeAudio } from '../../../src/audio/decode/index.ts';
import { readVbrTag } from '../../../src/audio/decode/lame-tag.ts';
import { parseMpegHeader } from '../../../src/audio/decode/mpeg-header.ts';
import { ffmpegConvert, ffmpegDecode, needsFfmpeg } from '../helpers/ffmpeg.ts';
import { bestLag, clickTrack, indexOfPeak, maxAbsDifference, uniformNoise } from '../helpers/signals.ts';
import { ascii, concat, u32, writeWav } from '../helpers/wav.ts';

/** Two different decoders (mpg123 and ffmpeg's) agree to about 1e-6; anything misaligned is far off. */
const TOLERANCE = 1e-4;

function sourceWav(sampleRate: number, channelCount: number, length: number): Uint8Array {
  const channels = Array.from({ length: channelCount }, (_, c) => uniformNoise(length, 0.25, c + 11));
  channels[0]!.set(clickTrack(length, Math.floor(length / 3)).subarray(0, length));
  return writeWav({ sampleRate, channels });
}

async function assertMatchesFfmpeg(mp3: Uint8Array, channelCount: number) {
  const reference = ffmpegDecode(mp3, 'mp3', channelCount);
  const decoded = await decodeAudio(mp3, 'sound.mp3');
  assert.equal(decoded.format, 'mp3');
  assert.equal(decoded.channels.length, channelCount);
  assert.equal(decoded.channels[0]!.length, reference[0]!.length, 'sample count differs from ffmpeg');
  assert.equal(
    bestLag(reference[0]!.subarray(0, 20000), decoded.channels[0]!.subarray(0, 20000), 1200),
    0,
    'misaligned',
  );
  decoded.channels.forEach((channel, c) =>
    assert.ok(maxAbsDifference(channel, reference[c]!) < TOLERANCE, `channel ${c} values differ`),
  );
  return decoded;
}

const LENGTH = 57_000;
const cases = [
  { rate: 44100, channels: 1, args: ['-b:a', '128k'], name: 'CBR' },
  { rate: 44100, channels: 2, args: ['-q:a', '2'], name: 'VBR' },
  { rate: 48000, channels: 1, args: ['-q:a', '4'], name: 'VBR' },
  { rate: 48000, channels: 2, args: ['-b:a', '192k'], name: 'CBR' },
  { rate: 22050, channels: 2, args: ['-b:a', '64k'], name: 'CBR (MPEG-2)' },
];

for (const { rate, channels, args, name } of cases) {
  test(
    `mp3.trims a LAME-tagged ${name} ${channels === 1 ? 'mono' : 'stereo'} ${rate} Hz file exactly like ffmpeg`,
    needsFfmpeg,
    async () => {
      const mp3 = ffmpegConvert(sourceWav(rate, channels, LENGTH), 'wav', ['-c:a', 'libmp3lame', ...args], 'mp3');
      const decoded = await assertMatchesFfmpeg(mp3, channels);
      assert.equal(decoded.channels[0]!.length, LENGTH, 'trimmed length is the source length');
      assert.equal(decoded.gapless?.delay, 576);
      assert.equal(indexOfPeak(decoded.channels[0]!), Math.floor(LENGTH / 3), 'the click stays at its sample');
    },
  );

  test(
    `mp3.trims nothing in an untagged ${name} ${channels === 1 ? 'mono' : 'stereo'} ${rate} Hz file, like ffmpeg`,
    needsFfmpeg,
    async () => {
      const mp3 = ffmpegConvert(
        sourceWav(rate, channels, LENGTH),
        'wav',
        ['-c:a', 'libmp3lame', '-write_xing', '0', ...args],
        'mp3',
      );
      const decoded = await assertMatchesFfmpeg(mp3, channels);
      assert.equal(decoded.gapless, null);
      assert.equal(decoded.channels[0]!.length % (rate >= 32000 ? 1152 : 576), 0, 'whole frames, nothing cut');
    },
  );
}

test('mp3.skips ID3v2 at the start and ID3v1 and APE tags at the end', needsFfmpeg, async () => {
  const mp3 = ffmpegConvert(
    sourceWav(44100, 2, 20000),
    'wav',
    ['-c:a', 'libmp3lame', '-write_id3v1', '1', '-metadata', 'title=\u00ffA\u00ff'],
    'mp3',
  );
  assert.equal(String.fromCharCode(...mp3.subarray(0, 3)), 'ID3');
  const apeItem = concat([
    u32(4),
    u32(0),
    ascii('Cover'),
    new Uint8Array([0]),
    new Uint8Array([0xff, 0xfb, 0x90, 0x64]),
  ]);
  const apeFooter = concat([ascii('APETAGEX'), u32(2000), u32(apeItem.length + 32), u32(1), u32(0), new Uint8Array(8)]);
  const withApe = concat([mp3.subarray(0, mp3.length - 128), apeItem, apeFooter, mp3.subarray(mp3.length - 128)]);
  const plain = await decodeAudio(mp3);
  const decoded = await decodeAudio(withApe);
  assert.equal(plain.channels[0]!.length, 20000);
  assert.deepEqual(decoded.channels, plain.channels);
});

test('mp3.keeps two identical channels as stereo', needsFfmpeg, async () => {
  const same = uniformNoise(30000, 0.3, 5);
  const mp3 = ffmpegConvert(
    writeWav({ sampleRate: 44100, channels: [same, same] }),
    'wav',
    ['-c:a', 'libmp3lame', '-q:a', '2'],
    'mp3',
  );
  const decoded = await decodeAudio(mp3);
  assert.equal(decoded.channels.length, 2);
  assert.deepEqual(decoded.channels[0], decoded.channels[1]);
});

test('mp3.is found by content, whatever the file is called', needsFfmpeg, async () => {
  const mp3 = ffmpegConvert(sourceWav(48000, 1, 9000), 'wav', ['-c:a', 'libmp3lame', '-id3v2_version', '0'], 'mp3');
  assert.equal((await decodeAudio(mp3, 'sound.wav')).format, 'mp3');
});

test('mp3.honours the LAME tag after leading junk, as mpg123 does', needsFfmpeg, async () => {
  // ffmpeg looks for the tag only right after the ID3v2 tag: with junk first it drops the tag
  // frame but trims nothing. The tag is still the stream's first frame, so we trim.
  const mp3 = ffmpegConvert(sourceWav(48000, 1, 9000), 'wav', ['-c:a', 'libmp3lame', '-id3v2_version', '0'], 'mp3');
  const decoded = await decodeAudio(concat([new Uint8Array(1000).fill(0x20), mp3]));
  assert.equal(decoded.channels[0]!.length, 9000);
  assert.deepEqual(decoded.channels, (await decodeAudio(mp3)).channels);
});

test('mp3.also decodes MPEG Layer II, like ffmpeg', needsFfmpeg, async () => {
  const mp2 = ffmpegConvert(sourceWav(48000, 2, 20000), 'wav', ['-c:a', 'mp2', '-b:a', '192k'], 'mp2');
  const decoded = await assertMatchesFfmpeg(mp2, 2);
  assert.equal(decoded.gapless, null);
});

// What the package does by itself, which the decoder relies on: with its gapless option on it
// already trims like ffmpeg; off, it outputs whole frames untrimmed and skips the Info frame
// (no frame of silence). We run it off and trim ourselves, to own the rule and report it.
test('mp3.mpg123-decoder alone: gapless off gives whole frames without the Info frame', needsFfmpeg, async () => {
  const mp3 = ffmpegConvert(
    sourceWav(44100, 2, 30000),
    'wav',
    ['-c:a', 'libmp3lame', '-q:a', '2', '-id3v2_version', '0'],
    'mp3',
  );
  const header = parseMpegHeader(mp3, 0)!;
  const audioFrames = readVbrTag(mp3.subarray(0, header.frameBytes), header)!.frameCount!;
  const run = async (enableGapless: boolean) => {
    const decoder = new MPEGDecoder({ enableGapless });
    await decoder.ready;
    try {
      return decoder.decode(mp3).samplesDecoded;
    } finally {
      decoder.free();
    }
  };
  assert.equal(await run(false), audioFrames * 1152);
  assert.equal(await run(true), 30000);
});
