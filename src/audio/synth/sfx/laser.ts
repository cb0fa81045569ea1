import { applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { whiteNoise } from '../dsp/noise.ts';
import { renderTone, type Waveform } from '../dsp/oscillators.ts';
import {
  capitalize,
  cleanTags,
  countWord,
  formatHz,
  formatHzFine,
  formatMs,
  formatSeconds,
  joinWords,
  lengthTags,
  lengthWord,
} from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** Lasers are fast pitch-down sweeps; the variants differ in length, shots and noise. */
const VARIANTS = [
  { noun: 'Zap', words: ['zap', 'pew'], shots: [1, 1], shotSeconds: [0.07, 0.4], hiss: 0 },
  { noun: 'Shot', words: ['shot', 'shoot', 'pew', 'weapon'], shots: [1, 1], shotSeconds: [0.15, 0.6], hiss: 0.08 },
  { noun: 'Burst', words: ['burst', 'shots', 'rapid', 'weapon'], shots: [2, 4], shotSeconds: [0.06, 0.18], hiss: 0 },
  { noun: 'Blast', words: ['blast', 'blaster', 'weapon'], shots: [1, 1], shotSeconds: [0.5, 1.2], hiss: 0.12 },
] as const;

const TIMBRES: readonly { waveform: Waveform; word: string; tag: string }[] = [
  { waveform: 'square', word: 'retro', tag: '8-bit' },
  { waveform: 'saw', word: 'buzzy', tag: 'buzzy' },
  { waveform: 'sine', word: 'smooth', tag: 'smooth' },
  { waveform: 'triangle', word: 'soft', tag: 'soft' },
];

export function generateLaser({ rng, sampleRate }: SynthContext): SoundDraft {
  const variant = rng.pick(VARIANTS);
  const timbre = rng.pick(TIMBRES);
  const shots = rng.int(variant.shots[0], variant.shots[1]);
  const shotSeconds = rng.range(variant.shotSeconds[0], variant.shotSeconds[1]);
  const gapSeconds = shotSeconds * rng.range(1.1, 1.6);
  const startHz = rng.logRange(900, 4500);
  const endHz = startHz / rng.range(4, 14);
  const wobble = rng.chance(0.3);

  const shotLength = samplesFor(shotSeconds, sampleRate);
  const out = new Float32Array(samplesFor(gapSeconds * (shots - 1) + shotSeconds, sampleRate));
  for (let shot = 0; shot < shots; shot++) {
    const tone = renderTone(shotLength, sampleRate, {
      waveform: timbre.waveform,
      startHz: startHz * (1 - 0.04 * shot),
      endHz,
      vibratoHz: wobble ? rng.range(25, 60) : 0,
      vibratoSemitones: wobble ? 1.5 : 0,
    });
    if (variant.hiss > 0) {
      const hiss = whiteNoise(shotLength, rng);
      stateVariableFilter(hiss, sampleRate, 'lowpass', 0.7, (t) => startHz * (endHz / startHz) ** (t / shotSeconds));
      mixInto(tone, hiss, 0, variant.hiss);
    }
    applyPercussive(tone, sampleRate, 0.002, shotSeconds);
    mixInto(out, tone, Math.round(shot * gapSeconds * sampleRate), 1 - 0.15 * shot);
  }
  // Square and saw sweeps starting near 4 kHz are piercing; take the edge off.
  stateVariableFilter(out, sampleRate, 'lowpass', 0.7, rng.range(6000, 11000));

  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-3, -1),
    leadingSilenceSeconds: rng.chance(0.5) ? rng.range(0, 0.05) : 0,
  });
  const seconds = durationOf(audio);
  const pitch = startHz > 2500 ? 'High' : startHz < 1400 ? 'Low' : '';
  const shotsWord = shots > 1 && `${capitalize(countWord(shots))}-Shot`;
  const what =
    shots > 1
      ? `${countWord(shots)} rapid laser shots, each sweeping`
      : `a ${timbre.word} laser ${variant.noun.toLowerCase()} sweeping`;
  return {
    title: joinWords('Laser', variant.noun),
    details: [
      joinWords(lengthWord(seconds), pitch, capitalize(timbre.word), shotsWord, 'Sweep'),
      `${formatHzFine(startHz)} to ${formatHzFine(endHz)}`,
      ...(wobble ? ['Wobbling'] : []),
    ],
    refinements: [`${formatMs(shotSeconds)} per Shot`],
    description: capitalize(
      `${what} down from ${formatHz(startHz)} to ${formatHz(endHz)} in ` +
        `${formatSeconds(shotSeconds)}${wobble ? ' with a fast wobble' : ''}.`,
    ),
    tags: cleanTags([
      'laser',
      ...variant.words,
      'sci-fi',
      'space',
      'game',
      'pitch-down',
      timbre.tag,
      ...lengthTags(seconds),
      pitch.toLowerCase(),
      wobble && 'wobble',
    ]),
    audio,
  };
}
