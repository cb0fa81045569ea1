import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeAudio } from '../../../src/audio/analyze/index.ts';
import { oversamplingFactor } from '../../../src/audio/analyze/interpolator.ts';
import { fadeEdges, silence, sine, stereo } from '../helpers/signals.ts';
import { tech3341TruePeak, type TruePeakCase } from '../helpers/ebu-tech3341.ts';

function truePeak(channels: Float32Array[], sampleRate = 48000): number | null {
  return analyzeAudio({ sampleRate, channels }).loudness.true_peak_db;
}

/** Tech 3341 cases 15 to 23 and the true peak each must read. */
const EBU_TRUE_PEAK_CASES: Array<[TruePeakCase, string, number]> = [
  [15, 'fs/4 at -6 dBFS, 0°', -6],
  [16, 'fs/4 at -6 dBFS, 45°', -6],
  [17, 'fs/6 at -6 dBFS, 60°', -6],
  [18, 'fs/8 at -6 dBFS, 67.5°', -6],
  [19, 'fs/4 at +3 dBFS, 45°', 3],
  [20, 'fs/6 at -6 dBFS with a period of fs/4 at 0 dBFS', 0],
  [21, 'the same a quarter sample later', 0],
  [22, 'the same half a sample later', 0],
  [23, 'the same three quarters of a sample later', 0],
];

for (const [which, signal, expected] of EBU_TRUE_PEAK_CASES) {
  test(`truepeak.ebu: Tech 3341 case ${which} (${signal}) reads ${expected} dBTP within +0.2 / -0.4 dB`, () => {
    const reading = analyzeAudio(tech3341TruePeak(which)).loudness.true_peak_db;
    assert.ok(reading !== null);
    assert.ok(reading <= expected + 0.2 && reading >= expected - 0.4, `case ${which}: ${reading} dBTP`);
  });
}

test('truepeak.intersample: a 45° fs/4 sine peaks 3 dB over its samples', () => {
  // Samples land at ±0.707 of the true amplitude: the sample peak is -3 dB, the true peak 0 dB.
  // Faded in and out, because an abrupt full-scale start rings above 0 dB once band-limited.
  const reading = truePeak(stereo(fadeEdges(sine(48000, 12000, 0, 48000, Math.PI / 4), 4800)))!;
  assert.ok(Math.abs(reading) < 0.05, `${reading}`);
});

test('truepeak.oversampling: 4x below 96 kHz, 2x from 96 kHz, none from 192 kHz', () => {
  assert.deepEqual([44100, 48000, 88200, 96000, 176400, 192000, 384000].map(oversamplingFactor), [4, 4, 4, 2, 2, 1, 1]);
});

test('truepeak.rates: a 997 Hz tone reads its amplitude at 44.1, 48, 96 and 192 kHz', () => {
  for (const rate of [44100, 48000, 96000, 192000]) {
    const reading = truePeak([sine(rate, 997, -6, rate)], rate)!;
    assert.ok(Math.abs(reading + 6) < 0.01, `${rate} Hz: ${reading}`);
  }
});

test('truepeak.channels: the maximum over all channels counts', () => {
  const quiet = sine(48000, 1000, -20, 4800);
  assert.ok(Math.abs(truePeak([quiet, sine(48000, 1000, -3, 4800), quiet])! + 3) < 0.01);
});

test('truepeak.edges: a click in the first or last sample is still measured', () => {
  for (const at of [0, 99]) {
    const click = silence(100);
    click[at] = 0.5;
    assert.ok(truePeak([click])! >= 20 * Math.log10(0.5));
  }
});

/** The band-limited (ideal sinc) peak of a short zero-padded signal, searched at 1/32 sample near its loud samples. */
function idealPeakDb(signal: Float32Array): number {
  let samplePeak = 0;
  for (const x of signal) samplePeak = Math.max(samplePeak, Math.abs(x));
  let peak = 0;
  for (let n = 0; n < signal.length; n++) {
    if (Math.abs(signal[n]!) < 0.7 * samplePeak) continue;
    for (let step = -16; step < 16; step++) {
      const t = n + step / 32;
      let value = 0;
      for (let k = 0; k < signal.length; k++)
        value += signal[k]! * (t === k ? 1 : Math.sin(Math.PI * (t - k)) / (Math.PI * (t - k)));
      peak = Math.max(peak, Math.abs(value));
    }
  }
  return 20 * Math.log10(peak);
}

test('truepeak.ideal: clicks and abruptly cut high tones read within +0.2 / -0.4 dB of the ideal peak', () => {
  // Here ffmpeg's meter (192 kHz, mirrored start, no flush at the end) reads up to 0.4 dB above
  // the ideal at 44.1 kHz; 4x oversampling may read under it, as BS.1770 allows.
  const click = silence(400);
  click[200] = 0.7;
  click[201] = -0.5;
  const cases: Array<[string, Float32Array, number]> = [
    ['click pair at 44.1 kHz', click, 44100],
    ['click pair at 48 kHz', click, 48000],
    ['50 ms of 16 kHz cut abruptly at 44.1 kHz', sine(44100, 16000, -8, 2205), 44100],
    ['50 ms of 12345 Hz cut abruptly at 44.1 kHz', sine(44100, 12345, -12, 2205), 44100],
  ];
  for (const [what, signal, rate] of cases) {
    const delta = truePeak([signal], rate)! - idealPeakDb(signal);
    assert.ok(delta <= 0.2 && delta >= -0.4, `${what}: ${delta.toFixed(3)} dB from the ideal peak`);
  }
});

test('truepeak.silence: digital silence gives null', () => {
  assert.equal(truePeak(stereo(silence(48000))), null);
  assert.equal(truePeak([new Float32Array(0)]), null);
});
