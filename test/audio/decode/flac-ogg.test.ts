import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeAudio } from '../../../src/audio/decode/index.ts';
import { ffmpegConvert, ffmpegDecode, needsFfmpeg } from '../helpers/ffmpeg.ts';
import { maxAbsDifference, rms, sine, uniformNoise } from '../helpers/signals.ts';
import { writeWav } from '../helpers/wav.ts';

function quantised(samples: Float32Array, bits: number): Float32Array {
  const full = 2 ** (bits - 1);
  return samples.map((v) => Math.round(v * full) / full || 0);
}

for (const bits of [16, 24] as const) {
  test(`flac.decodes ${bits}-bit audio bit-exactly (same values as the WAV it came from)`, needsFfmpeg, async () => {
    const channels = [quantised(uniformNoise(20000, 0.5, 1), bits), quantised(uniformNoise(20000, 0.5, 2), bits)];
    const flac = ffmpegConvert(writeWav({ sampleRate: 48000, channels, bits }), 'wav', ['-c:a', 'flac'], 'flac');
    const decoded = await decodeAudio(flac, 'x.flac');
    assert.equal(decoded.format, 'flac');
    assert.equal(decoded.sampleRate, 48000);
    assert.deepEqual(decoded.channels, channels);
  });
}

test('flac.keeps two identical channels as stereo and one channel as mono', needsFfmpeg, async () => {
  const same = quantised(uniformNoise(5000, 0.5, 3), 16);
  const stereo = ffmpegConvert(
    writeWav({ sampleRate: 44100, channels: [same, same] }),
    'wav',
    ['-c:a', 'flac'],
    'flac',
  );
  const mono = ffmpegConvert(writeWav({ sampleRate: 44100, channels: [same] }), 'wav', ['-c:a', 'flac'], 'flac');
  assert.deepEqual((await decodeAudio(stereo)).channels, [same, same]);
  assert.deepEqual((await decodeAudio(mono)).channels, [same]);
});

test('flac.skips an ID3v2 tag in front of the stream', needsFfmpeg, async () => {
  const channels = [quantised(uniformNoise(3000, 0.5, 4), 16)];
  const flac = ffmpegConvert(writeWav({ sampleRate: 44100, channels }), 'wav', ['-c:a', 'flac'], 'flac');
  const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4, 5]);
  const tagged = new Uint8Array(id3.length + flac.length);
  tagged.set(id3);
  tagged.set(flac, id3.length);
  assert.deepEqual((await decodeAudio(tagged)).channels, channels);
});

test('ogg.decodes Ogg FLAC bit-exactly', needsFfmpeg, async () => {
  const channels = [quantised(uniformNoise(8000, 0.5, 5), 16)];
  const ogg = ffmpegConvert(writeWav({ sampleRate: 32000, channels }), 'wav', ['-c:a', 'flac'], 'oga');
  const decoded = await decodeAudio(ogg);
  assert.equal(decoded.format, 'ogg');
  assert.deepEqual(decoded.channels, channels);
});

for (const channelCount of [1, 2]) {
  // ffmpeg's own Vorbis decoding ends a little off for some lengths (33205 and 33408 samples
  // here, for 33333 in): it does not apply the last page's granule position exactly. The WASM
  // decoder does, so the length is checked against the source and the values against ffmpeg.
  test(
    `ogg.decodes ${channelCount === 1 ? 'mono' : 'stereo'} Vorbis to the source length and ffmpeg's values`,
    needsFfmpeg,
    async () => {
      const channels = Array.from({ length: channelCount }, (_, c) => sine(44100, 440 * (c + 1), -8, 33333));
      const ogg = ffmpegConvert(
        writeWav({ sampleRate: 44100, channels }),
        'wav',
        ['-c:a', 'libvorbis', '-q:a', '5'],
        'ogg',
      );
      const decoded = await decodeAudio(ogg, 'x.ogg');
      const reference = ffmpegDecode(ogg, 'ogg', channelCount);
      assert.equal(decoded.format, 'ogg');
      assert.equal(decoded.channels.length, channelCount);
      assert.equal(decoded.channels[0]!.length, 33333);
      decoded.channels.forEach((channel, c) => assert.ok(maxAbsDifference(channel, reference[c]!) < 1e-5));
    },
  );
}

test('ogg.puts 5.1 Vorbis channels in WAV order (L R C LFE Ls Rs)', needsFfmpeg, async () => {
  const levels = [-8, -14, -20, -26, -32, -38];
  // The LFE channel is band-limited by the encoder: give it a low tone.
  const channels = levels.map((level, c) => sine(48000, c === 3 ? 60 : 300 + 50 * c, level, 24000));
  const ogg = ffmpegConvert(
    writeWav({ sampleRate: 48000, channels, extensible: true }),
    'wav',
    ['-c:a', 'libvorbis'],
    'ogg',
  );
  const decoded = await decodeAudio(ogg);
  assert.equal(decoded.channels.length, 6);
  decoded.channels.forEach((channel, c) => {
    const ratio = rms(channel) / rms(channels[c]!);
    assert.ok(ratio > 0.8 && ratio < 1.25, `channel ${c} holds another channel's audio (level ratio ${ratio})`);
  });
});
