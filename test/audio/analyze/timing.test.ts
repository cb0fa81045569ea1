import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeAudio } from '../../../src/audio/analyze/index.ts';
import type { PcmAudio } from '../../../src/audio/types.ts';
import { concat, fadeEdges, mixInto, noise, seededRandom, silence, sine, stereo } from '../helpers/signals.ts';
import { referenceTiming } from '../helpers/timing-reference.ts';

const NO_TIMING = { onset_ms: null, peak_ms: null, tail_ms: null };

function timing(audio: PcmAudio) {
  return analyzeAudio(audio).timing;
}

/** 300 ms of silence, a 1 kHz cosine burst (first and last samples near full swing) to 1500 ms, silence to 2 s. */
function burst(rate: number, peakAt: number): PcmAudio {
  const signal = silence(2 * rate);
  const [start, end] = [0.3 * rate, 1.5 * rate];
  for (let n = start; n < end; n++) signal[n] = 0.5 * Math.cos((2 * Math.PI * 1000 * (n - start)) / rate);
  signal[peakAt] = -0.9;
  return { sampleRate: rate, channels: stereo(signal) };
}

for (const rate of [44100, 48000]) {
  test(`timing.burst: at ${rate} Hz onset is 300 ms, tail 1500 ms and peak the largest sample`, () => {
    const peakAt = 0.3 * rate + 12345;
    assert.deepEqual(timing(burst(rate, peakAt)), {
      onset_ms: 300,
      peak_ms: Math.round((peakAt / rate) * 1e6) / 1000,
      tail_ms: 1500,
    });
  });
}

test('timing.sample-exact: onset is the first sample over the threshold, not the window start', () => {
  // A sine starting at phase 0: its first sample is 0, the second already far above the threshold.
  const signal = concat(silence(14400), sine(48000, 1000, -6, 48000), silence(24000));
  const result = timing({ sampleRate: 48000, channels: [signal] });
  assert.equal(result.onset_ms, Math.round((14401 / 48) * 1000) / 1000);
  assert.deepEqual(result, referenceTiming({ sampleRate: 48000, channels: [signal] }));
});

test('timing.peak: the first of equal largest samples across channels is the peak', () => {
  const left = silence(4800);
  const right = silence(4800);
  right[1000] = 0.5;
  left[2000] = -0.5;
  assert.equal(timing({ sampleRate: 48000, channels: [left, right] }).peak_ms, Math.round((1000 / 48) * 1000) / 1000);
});

test('timing.decay: a tone decaying 20 dB/s into silence ends where it is 40 dB under its peak', () => {
  const rate = 48000;
  const tone = sine(rate, 1000, -6, 4 * rate);
  for (let n = 0; n < tone.length; n++) tone[n] = tone[n]! * 10 ** ((-20 * n) / rate / 20);
  const { tail_ms } = timing({ sampleRate: rate, channels: [concat(tone, silence(rate))] });
  assert.ok(Math.abs(tail_ms! - 2000) < 15, `tail ${tail_ms}`);
});

test('timing.noise-floor: over steady noise the tail is where the burst sinks into the floor', () => {
  const rate = 48000;
  // Noise at -40 dB RMS throughout; a -9 dB (power) tone from 500 ms decaying 60 dB/s.
  const signal = noise(7, -40, 3 * rate);
  const tone = sine(rate, 1000, -6, 2 * rate);
  for (let n = 0; n < tone.length; n++) tone[n] = tone[n]! * 10 ** ((-60 * n) / rate / 20);
  mixInto(signal, tone, 0.5 * rate);
  const result = timing({ sampleRate: rate, channels: [signal] });
  // T = F + 12 with F a little under -40 dB, so the tone (power -9 dB) meets it after ~(40 - 12 - 9) / 60 s.
  const crossing = 500 + ((40 - 12 - 9) / 60) * 1000;
  assert.ok(Math.abs(result.onset_ms! - 500) < 1, `onset ${result.onset_ms}`);
  assert.ok(Math.abs(result.tail_ms! - crossing) < 25, `tail ${result.tail_ms}, expected about ${crossing}`);
  assert.deepEqual(result, referenceTiming({ sampleRate: rate, channels: [signal] }));
});

test('timing.silence: digital silence, sound under -70 dBFS and empty audio give nulls', () => {
  assert.deepEqual(timing({ sampleRate: 48000, channels: stereo(silence(48000)) }), NO_TIMING);
  assert.deepEqual(timing({ sampleRate: 48000, channels: [sine(48000, 1000, -75, 48000)] }), NO_TIMING);
  assert.deepEqual(timing({ sampleRate: 48000, channels: [new Float32Array(0)] }), NO_TIMING);
});

test('timing.short: one sample, 5 ms and 10 ms sounds are timed without error', () => {
  assert.deepEqual(timing({ sampleRate: 48000, channels: [Float32Array.of(0.5)] }), {
    onset_ms: 0,
    peak_ms: 0,
    tail_ms: 0.021,
  });
  for (const frames of [240, 480, 481]) {
    const audio = { sampleRate: 48000, channels: [sine(48000, 1000, -6, frames, Math.PI / 2)] };
    const result = timing(audio);
    assert.equal(result.onset_ms, 0);
    assert.deepEqual(result, referenceTiming(audio));
  }
});

test(
  'timing.reference: random bursts, fades and noise agree ' + 'sample for sample with a plain reading of the rule',
  () => {
    const random = seededRandom(42);
    for (let trial = 0; trial < 40; trial++) {
      const rate = [8000, 22050, 44100, 48000, 96000][trial % 5]!;
      const frames = Math.floor(random() * rate * (trial % 4 === 0 ? 0.05 : 1.5)) + 1;
      const channels = Array.from({ length: 1 + (trial % 3) }, (_, c) => {
        const signal = noise(trial * 10 + c, -60 + random() * 30, frames, random() * 0.9);
        const at = Math.floor(random() * frames);
        mixInto(
          signal,
          fadeEdges(noise(trial * 10 + c + 5, -20 + random() * 15, Math.floor(random() * frames)), 50),
          at,
        );
        return signal;
      });
      const audio = { sampleRate: rate, channels };
      assert.deepEqual(timing(audio), referenceTiming(audio), `trial ${trial}: ${rate} Hz, ${frames} frames`);
    }
  },
);

test('timing.long-fades: slow fades keep many candidate windows and still match the plain rule', () => {
  // 12 s rising 60 dB then 12 s falling: thousands of windows stay candidates for onset and tail.
  const rate = 8000;
  const signal = noise(99, -6, 24 * rate);
  for (let n = 0; n < signal.length; n++) {
    const seconds = n / rate;
    signal[n] = signal[n]! * 10 ** ((-60 * Math.abs(12 - seconds)) / 12 / 20);
  }
  const audio = { sampleRate: rate, channels: [signal] };
  assert.deepEqual(timing(audio), referenceTiming(audio));
});
