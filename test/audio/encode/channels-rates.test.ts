import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeAudio } from '../../../src/audio/decode/index.ts';
import { encodeMp3, mp3SampleRate, Resampler, stereoDownmixMatrix } from '../../../src/audio/encode/index.ts';
import { downmixToStereo } from '../../../src/audio/encode/downmix.ts';
import { ffmpegDecode, needsFfmpeg } from '../helpers/ffmpeg.ts';
import {
  bestLag,
  clickTrack,
  dbToAmplitude,
  indexOfPeak,
  maxAbsDifference,
  rms,
  sine,
  uniformNoise,
} from '../helpers/signals.ts';
import { writeWav } from '../helpers/wav.ts';

test('channels.mono stays mono and stereo stays stereo', async () => {
  for (const count of [1, 2]) {
    const channels = Array.from({ length: count }, (_, c) => uniformNoise(5000, 0.3, c + 1));
    assert.equal((await decodeAudio(await encodeMp3({ sampleRate: 44100, channels }))).channels.length, count);
  }
});

test('channels.5.1 is downmixed to stereo exactly as `ffmpeg -ac 2` does', needsFfmpeg, async () => {
  const channels = Array.from({ length: 6 }, (_, c) => uniformNoise(4800, 0.2, c + 1));
  const reference = ffmpegDecode(
    writeWav({ sampleRate: 48000, channels, encoding: 'float', extensible: true }),
    'wav',
    2,
    ['-ac', '2'],
  );
  const [left, right] = downmixToStereo(channels, stereoDownmixMatrix(6));
  assert.ok(maxAbsDifference(left, reference[0]!) < 1e-6);
  assert.ok(maxAbsDifference(right, reference[1]!) < 1e-6);
});

test('channels.more than two channels encode to a stereo MP3', async () => {
  for (const count of [3, 4, 5, 6, 7, 8, 12]) {
    const channels = Array.from({ length: count }, (_, c) => sine(48000, 200 + 100 * c, -20, 9600));
    const decoded = await decodeAudio(await encodeMp3({ sampleRate: 48000, channels }));
    assert.equal(decoded.channels.length, 2, `${count} channels`);
    assert.equal(decoded.channels[0]!.length, 9600);
  }
});

test(
  'rates.MP3 rates are kept; others go to 48 kHz, 44.1 kHz ' +
    'multiples to 44.1, low odd rates up to the next MP3 rate',
  () => {
    for (const rate of [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000])
      assert.equal(mp3SampleRate(rate), rate);
    assert.deepEqual(
      [96000, 88200, 192000, 176400, 64000, 50000].map(mp3SampleRate),
      [48000, 44100, 48000, 44100, 48000, 48000],
    );
    assert.deepEqual([6000, 37800, 20000, 1000].map(mp3SampleRate), [8000, 44100, 22050, 8000]);
  },
);

for (const [inRate, outRate] of [
  [96000, 48000],
  [88200, 44100],
  [192000, 48000],
  [37800, 44100],
] as const) {
  test(`rates.${inRate} Hz is encoded at ${outRate} Hz with its length, timing and level kept`, async () => {
    const length = inRate * 2;
    const clickAt = inRate; // one second in
    const tone = sine(inRate, 1000, -10, length);
    const clicks = clickTrack(length, clickAt);
    const decoded = await decodeAudio(await encodeMp3({ sampleRate: inRate, channels: [tone, clicks] }));
    assert.equal(decoded.sampleRate, outRate);
    assert.equal(decoded.channels[0]!.length, Math.ceil((length * outRate) / inRate));
    assert.equal(indexOfPeak(decoded.channels[1]!), outRate, 'the click is still at one second');
    const level = rms(decoded.channels[0]!, outRate / 2, outRate * 1.5) / rms(tone, inRate / 2, inRate * 1.5);
    // The resampler alone is flat to 0.01 dB (below); MP3 coding itself moves a tone by ~0.1 dB.
    assert.ok(Math.abs(20 * Math.log10(level)) < 0.25, `1 kHz level changed by ${20 * Math.log10(level)} dB`);
    const expected = sine(outRate, 1000, -10, decoded.channels[0]!.length);
    assert.equal(bestLag(expected.subarray(1000, 20000), decoded.channels[0]!.subarray(1000, 20000), 20), 0);
  });
}

test('resampler.is flat in the passband and rejects what would alias', () => {
  const through = (frequency: number) => {
    const resampler = new Resampler(96000, 48000, 1);
    const out = resampler.process([sine(96000, frequency, -6, 96000)])[0]!;
    return 20 * Math.log10(rms(out, 12000, 36000) / (dbToAmplitude(-6) / Math.SQRT2));
  };
  for (const frequency of [100, 1000, 10000, 20000]) assert.ok(Math.abs(through(frequency)) < 0.01, `${frequency} Hz`);
  for (const frequency of [25000, 30000, 40000]) assert.ok(through(frequency) < -90, `${frequency} Hz aliases`);
});

test('resampler.gives the same output whatever the chunking, and ceil(n * out / in) samples', () => {
  const input = uniformNoise(30011, 0.5, 9);
  const whole = new Resampler(44100, 48000, 1);
  const expected = [...whole.process([input])[0]!, ...whole.flush()[0]!];
  const chunked = new Resampler(44100, 48000, 1);
  const out: number[] = [];
  for (let offset = 0; offset < input.length; offset += 997)
    out.push(...chunked.process([input.subarray(offset, offset + 997)])[0]!);
  out.push(...chunked.flush()[0]!);
  assert.equal(out.length, Math.ceil((30011 * 48000) / 44100));
  assert.deepEqual(out, expected);
});
