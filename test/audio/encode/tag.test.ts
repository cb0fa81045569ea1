import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc16 } from '../../../src/audio/decode/crc16.ts';
import { readVbrTag } from '../../../src/audio/decode/lame-tag.ts';
import { parseMpegHeader } from '../../../src/audio/decode/mpeg-header.ts';
import { encodeMp3 } from '../../../src/audio/encode/index.ts';
import { ffprobeStreamTag, needsFfmpeg } from '../helpers/ffmpeg.ts';
import { uniformNoise } from '../helpers/signals.ts';

/** Splits an MP3 with no ID3 tags into frames by their headers. */
function frames(mp3: Uint8Array) {
  const found = [];
  for (let offset = 0; offset < mp3.length; ) {
    const header = parseMpegHeader(mp3, offset);
    assert.ok(header, `no frame header at ${offset}`);
    found.push({ offset, header, bytes: mp3.subarray(offset, offset + header.frameBytes) });
    offset += header.frameBytes;
  }
  return found;
}

async function encodedTag(length: number, channelCount: number, options = {}) {
  const channels = Array.from({ length: channelCount }, (_, c) => uniformNoise(length, 0.3, c + 1));
  const mp3 = await encodeMp3({ sampleRate: 44100, channels }, options);
  const [first, ...audio] = frames(mp3);
  const tag = readVbrTag(first!.bytes, first!.header);
  assert.ok(tag?.lame, 'the first frame holds a LAME tag');
  return { mp3, first: first!, audio, tag, lame: tag.lame };
}

test('tag.VBR files start with a Xing frame that counts the frames and bytes and has a seek TOC', async () => {
  const { mp3, audio, tag } = await encodedTag(44100 * 3, 2);
  assert.equal(tag.kind, 'xing');
  assert.equal(tag.frameCount, audio.length);
  assert.equal(tag.byteCount, mp3.length);
  assert.ok(tag.toc);
  assert.equal(tag.toc[0], 0);
  for (let i = 1; i < 100; i++) assert.ok(tag.toc[i]! >= tag.toc[i - 1]!, 'TOC entries never go back');
  const middle = audio[Math.floor(audio.length / 2)]!.offset - audio[0]!.offset;
  assert.ok(
    Math.abs(tag.toc[50]! - (256 * middle) / (mp3.length - audio[0]!.offset)) <= 2,
    'TOC[50] points at the middle frame',
  );
  assert.equal(tag.quality, 80, 'V2');
});

test('tag.CBR files start with an Info frame the size of every other frame', async () => {
  const { first, audio, tag } = await encodedTag(44100, 1, { bitrate: 128 });
  assert.equal(tag.kind, 'info');
  assert.equal(first.header.bitrateKbps, 128);
  assert.equal(first.header.channelCount, 1, 'the tag frame has the stream mode');
  assert.ok(audio.every((frame) => frame.header.bitrateKbps === 128));
});

test('tag.holds LAME delay 576 and the padding that makes frames * 1152 = delay + samples + padding', async () => {
  for (const length of [1, 1000, 1152, 44100]) {
    const { audio, lame } = await encodedTag(length, 2);
    assert.equal(lame.encoder, 'LAME3.100');
    assert.equal(lame.delay, 576);
    assert.equal(audio.length * 1152, 576 + length + lame.padding);
  }
});

test('tag.CRCs are correct: the tag CRC and the music CRC over the audio frames', async () => {
  const { mp3, audio, lame } = await encodedTag(20000, 2);
  assert.ok(lame.tagCrcValid);
  assert.equal(lame.musicCrc, crc16(mp3.subarray(audio[0]!.offset)));
  assert.equal(lame.musicLength, mp3.length);
});

test('tag.ffmpeg accepts the tag CRC (it shows the encoder only when the CRC matches)', needsFfmpeg, async () => {
  const { mp3 } = await encodedTag(10000, 2);
  assert.equal(ffprobeStreamTag(mp3, 'mp3', 'encoder'), 'LAME3.100');
  const damaged = mp3.slice();
  damaged[4 + 32 + 120 + 11] = 0x42; // the peak field, inside the span the tag CRC covers
  assert.notEqual(ffprobeStreamTag(damaged, 'mp3', 'encoder'), 'LAME3.100');
});
