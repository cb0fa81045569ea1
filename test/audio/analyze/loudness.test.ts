import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeAudio } from '../../../src/audio/analyze/index.ts';
import { highpassBiquad, shelfBiquad } from '../../../src/audio/analyze/kweighting.ts';
import { concat, noise, silence, sine, stereo } from '../helpers/signals.ts';
import { tech3341Tones } from '../helpers/ebu-tech3341.ts';

function lufs(channels: Float32Array[], sampleRate = 48000): number | null {
  return analyzeAudio({ sampleRate, channels }).loudness.integrated_lufs;
}

function assertNear(actual: number | null, expected: number, tolerance: number, what: string): void {
  assert.ok(actual !== null, `${what}: got null`);
  // Readings are rounded to 0.01 dB: a difference of exactly the tolerance must not fail on the
  // last bit of a binary fraction.
  assert.ok(
    Math.abs(actual - expected) <= tolerance + 1e-9,
    `${what}: ${actual} is not within ${tolerance} of ${expected}`,
  );
}

test('loudness.kweighting: derived 48 kHz coefficients are the ones printed in BS.1770', () => {
  const shelf = shelfBiquad(48000);
  const highpass = highpassBiquad(48000);
  const printed = [
    [shelf.b0, 1.53512485958697],
    [shelf.b1, -2.69169618940638],
    [shelf.b2, 1.19839281085285],
    [shelf.a1, -1.69065929318241],
    [shelf.a2, 0.73248077421585],
    [highpass.b0, 1],
    [highpass.b1, -2],
    [highpass.b2, 1],
    [highpass.a1, -1.99004745483398],
    [highpass.a2, 0.99007225036621],
  ];
  for (const [derived, expected] of printed)
    assert.ok(Math.abs(derived! - expected!) < 1e-9, `${derived} vs ${expected}`);
});

for (const [which, level] of [
  [1, -23],
  [2, -33],
] as const) {
  test(
    `loudness.ebu: Tech 3341 case ${which} (1 kHz at ${level} ` + `dBFS, 20 s, 16-bit) reads ${level}.0 within 0.1 LU`,
    () => {
      assertNear(analyzeAudio(tech3341Tones([[level, 20]])).loudness.integrated_lufs, level, 0.1, `case ${which}`);
    },
  );
}

test('loudness.ebu: Tech 3341 case 3 (-36/-23/-36 dBFS) reads -23.0 within 0.1 LU', () => {
  assertNear(
    analyzeAudio(
      tech3341Tones([
        [-36, 10],
        [-23, 60],
        [-36, 10],
      ]),
    ).loudness.integrated_lufs,
    -23,
    0.1,
    'case 3',
  );
});

test('loudness.ebu: Tech 3341 case 4 (-72/-36/-23/-36/-72 dBFS) reads -23.0 within 0.1 LU', () => {
  const audio = tech3341Tones([
    [-72, 10],
    [-36, 10],
    [-23, 60],
    [-36, 10],
    [-72, 10],
  ]);
  assertNear(analyzeAudio(audio).loudness.integrated_lufs, -23, 0.1, 'case 4');
});

test('loudness.ebu: Tech 3341 case 5 (-26/-20/-26 dBFS, 20.1 s middle) reads -23.0 within 0.1 LU', () => {
  assertNear(
    analyzeAudio(
      tech3341Tones([
        [-26, 20],
        [-20, 20.1],
        [-26, 20],
      ]),
    ).loudness.integrated_lufs,
    -23,
    0.1,
    'case 5',
  );
});

test('loudness.ebu: Tech 3341 case 6 (5.0: L,R -28, C -24, Ls,Rs -30 dBFS) reads -23.0 within 0.1 LU', () => {
  const frames = 20 * 48000;
  const [l, c, s] = [sine(48000, 1000, -28, frames), sine(48000, 1000, -24, frames), sine(48000, 1000, -30, frames)];
  assertNear(lufs([l, l.slice(), c, s, s.slice()]), -23, 0.1, 'case 6');
});

test('loudness.lfe: the LFE channel of 5.1 does not count', () => {
  const frames = 10 * 48000;
  const front = sine(48000, 1000, -23, frames);
  const quiet = silence(frames);
  const withoutLfe = lufs([front, front.slice(), quiet, quiet, quiet, quiet]);
  const withLfe = lufs([front, front.slice(), quiet, sine(48000, 60, -6, frames), quiet, quiet]);
  assert.equal(withLfe, withoutLfe);
});

test('loudness.rates: a 997 Hz tone reads the same at 44.1, 48 and 96 kHz within 0.03 LU', () => {
  const readings = [44100, 48000, 96000].map((rate) => lufs(stereo(sine(rate, 997, -20, 10 * rate)), rate)!);
  for (const reading of readings) assertNear(reading, readings[1]!, 0.03, `readings ${readings.join(', ')}`);
});

test('loudness.mono: a mono 997 Hz sine at -23 dBFS reads -26.0 LUFS (no dual-mono gain)', () => {
  assertNear(lufs([sine(48000, 997, -23, 10 * 48000)]), -26, 0.05, 'mono');
});

test('loudness.gating: blocks under -70 LUFS and 10 LU under the mean are ignored', () => {
  const loud = sine(48000, 1000, -20, 5 * 48000);
  const second = silence(48000);
  // Only the blocks that straddle an edge may differ; everything else around the tone is gated out.
  const reference = lufs([concat(second, loud, second)])!;
  const underAbsolute = concat(silence(20 * 48000), loud, sine(48000, 1000, -80, 20 * 48000));
  assertNear(lufs([underAbsolute]), reference, 0.001, 'absolute gate');
  const underRelative = concat(sine(48000, 1000, -40, 20 * 48000), loud, sine(48000, 1000, -40, 20 * 48000));
  assertNear(lufs([underRelative]), reference, 0.01, 'relative gate');
  assert.ok(Math.abs(lufs([concat(sine(48000, 1000, -29, 20 * 48000), loud)])! - reference) > 1, 'within 10 LU counts');
});

test('loudness.short: a sound under 400 ms is one block spanning the whole sound', () => {
  const blip = sine(48000, 1000, -20, 9600); // 200 ms: no complete 400 ms block
  const reading = lufs([blip])!;
  const steady = lufs([sine(48000, 1000, -20, 10 * 48000)])!;
  assertNear(reading, steady, 0.1, '200 ms tone vs a long one');
  assert.equal(lufs([noise(1, -20, 2400)]) !== null, true, '50 ms of noise is measured');
});

test('loudness.silence: digital silence and sound under the absolute gate give null', () => {
  assert.equal(lufs(stereo(silence(48000))), null);
  assert.equal(lufs(stereo(silence(100))), null);
  assert.equal(lufs([sine(48000, 1000, -90, 48000)]), null);
  assert.equal(analyzeAudio({ sampleRate: 48000, channels: [new Float32Array(0)] }).loudness.integrated_lufs, null);
});
