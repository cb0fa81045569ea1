import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeAudio, analyzeChunks, createAnalyzer, WAVEFORM_POINTS } from '../../../src/audio/analyze/index.ts';
import type { PcmAudio } from '../../../src/audio/types.ts';
import { concat, noise, note, seededRandom, silence, sine, stereo } from '../helpers/signals.ts';

function* chunksOf(audio: PcmAudio, sizes: () => number): Generator<Float32Array[]> {
  const frames = audio.channels[0]!.length;
  for (let start = 0; start < frames; ) {
    const end = Math.min(frames, start + sizes());
    yield audio.channels.map((channel) => channel.subarray(start, end));
    start = end;
  }
}

function streamed(audio: PcmAudio, sizes: () => number) {
  const analyzer = createAnalyzer(audio.sampleRate, audio.channels.length);
  for (const chunk of chunksOf(audio, sizes)) analyzer.push(chunk);
  return analyzer.finish();
}

const signals: Array<[string, PcmAudio]> = [
  [
    'noise bursts, stereo 48 kHz',
    {
      sampleRate: 48000,
      channels: [
        concat(silence(7000), noise(1, -12, 60000), silence(30001)),
        concat(noise(2, -50, 50000), noise(3, -8, 47001)),
      ],
    },
  ],
  [
    'notes, mono 44.1 kHz',
    { sampleRate: 44100, channels: [concat(note(44100, 220, -10, 1.3), note(44100, 330, -16, 1.1))] },
  ],
  [
    '5.1 at 22.05 kHz',
    { sampleRate: 22050, channels: Array.from({ length: 6 }, (_, c) => noise(10 + c, -20 - 3 * c, 33333, 0.5)) },
  ],
  ['a 10 ms tone', { sampleRate: 48000, channels: stereo(sine(48000, 1000, -6, 480)) }],
  ['a single sample', { sampleRate: 48000, channels: [Float32Array.of(0.25)] }],
];

const chunkings: Array<[string, () => number]> = [
  ['1 frame', () => 1],
  ['7 frames', () => 7],
  ['333 frames', () => 333],
  ['8193 frames', () => 8193],
  [
    'random 0-5000 frames',
    (() => {
      const random = seededRandom(5);
      return () => Math.floor(random() * 5000);
    })(),
  ],
];

for (const [name, audio] of signals) {
  test(`streaming.identical: ${name} gives the same measurements in any chunking`, () => {
    const whole = analyzeAudio(audio);
    for (const [chunking, sizes] of chunkings) assert.deepEqual(streamed(audio, sizes), whole, `chunks of ${chunking}`);
  });
}

test('streaming.async: analyzeChunks over an async source equals analyzeAudio', async () => {
  const [, audio] = signals[0]!;
  async function* source() {
    yield* chunksOf(audio, () => 4410);
  }
  assert.deepEqual(await analyzeChunks(audio.sampleRate, audio.channels.length, source()), analyzeAudio(audio));
});

test('streaming.duration: duration is samples / sample rate', () => {
  assert.equal(analyzeAudio({ sampleRate: 44100, channels: [silence(66150)] }).duration, 1.5);
  assert.equal(analyzeAudio({ sampleRate: 48000, channels: [silence(1)] }).duration, 1 / 48000);
});

test('streaming.silence: silence measures as nulls with a flat waveform', () => {
  const result = analyzeAudio({ sampleRate: 48000, channels: stereo(silence(96000)) });
  assert.deepEqual(result.loudness, { integrated_lufs: null, true_peak_db: null });
  assert.deepEqual(result.timing, { onset_ms: null, peak_ms: null, tail_ms: null });
  assert.ok(result.waveform.every(([lo, hi]) => lo === 0 && hi === 0));
});

test('streaming.errors: wrong channel counts, ragged chunks and use after finish are refused', () => {
  const analyzer = createAnalyzer(48000, 2);
  assert.throws(() => analyzer.push([new Float32Array(4)]), RangeError);
  assert.throws(() => analyzer.push([new Float32Array(4), new Float32Array(5)]), RangeError);
  analyzer.push([new Float32Array(0), new Float32Array(0)]);
  analyzer.finish();
  assert.throws(() => analyzer.push([new Float32Array(4), new Float32Array(4)]));
  assert.throws(() => createAnalyzer(0, 2), RangeError);
  assert.throws(() => createAnalyzer(48000, 0), RangeError);
});

test('waveform.length: always WAVEFORM_POINTS pairs, also for 1, 150 and 0 samples', () => {
  assert.equal(WAVEFORM_POINTS, 200);
  for (const frames of [0, 1, 150, 199, 200, 201, 48000]) {
    const { waveform } = analyzeAudio({ sampleRate: 48000, channels: [noise(frames, -10, frames)] });
    assert.equal(waveform.length, WAVEFORM_POINTS, `${frames} frames`);
    for (const [lo, hi] of waveform) assert.ok(lo <= hi);
  }
  assert.deepEqual(analyzeAudio({ sampleRate: 48000, channels: [Float32Array.of(0.5)] }).waveform[123], [0.5, 0.5]);
});

test('waveform.shape: each pair is the min and max over all channels of its share of the sound', () => {
  // Long sounds are summarised in doubling buckets, so a share's edges may take in up to one
  // bucket (1/2048 of the length) of its neighbour: the pairs at the step are not checked.
  const frames = 1_000_000; // long enough for the buckets to merge many times
  const left = new Float32Array(frames).fill(0.5, 0, frames / 2).fill(-0.25, frames / 2);
  const right = new Float32Array(frames);
  right[frames - 1] = -0.75;
  const { waveform } = analyzeAudio({ sampleRate: 48000, channels: [left, right] });
  assert.deepEqual(waveform[0], [0, 0.5]);
  assert.deepEqual(waveform[98], [0, 0.5]);
  assert.deepEqual(waveform[101], [-0.25, 0]);
  assert.deepEqual(waveform[199], [-0.75, 0]);
});

test('waveform.exact: short sounds are exact against a direct min/max per share', () => {
  const signal = noise(77, -10, 3000);
  const { waveform } = analyzeAudio({ sampleRate: 48000, channels: [signal] });
  for (let p = 0; p < WAVEFORM_POINTS; p++) {
    const share = signal.subarray(Math.floor((p * 3000) / 200), Math.floor(((p + 1) * 3000) / 200));
    const [lo, hi] = [Math.min(...share), Math.max(...share)].map((x) => Math.round(x * 1e4) / 1e4 + 0);
    assert.deepEqual(waveform[p], [lo, hi]);
  }
});
