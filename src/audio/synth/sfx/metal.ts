import { applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { whiteNoise } from '../dsp/noise.ts';
import { renderTone } from '../dsp/oscillators.ts';
import {
  cleanTags,
  durationAdjective,
  formatHz,
  formatHzFine,
  formatSeconds,
  joinWords,
  lengthTags,
  noteNameOfHz,
} from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/**
 * Metal hits: a few inharmonic partials, each decaying at its own rate, struck by a click.
 * The ratios of a free bar's modes (1, 2.76, 5.40, 8.93) make it sound like struck metal.
 */
const BAR_MODES = [1, 2.76, 5.4, 8.93];
const OBJECTS = [
  { noun: 'Pipe', word: 'pipe', hz: [300, 700] },
  { noun: 'Pan', word: 'pan', hz: [180, 400] },
  { noun: 'Bar', word: 'bar', hz: [500, 1200] },
  { noun: 'Plate', word: 'plate', hz: [120, 300] },
] as const;

export function generateMetalHit({ rng, sampleRate }: SynthContext): SoundDraft {
  const object = rng.pick(OBJECTS);
  const baseHz = rng.range(object.hz[0], object.hz[1]);
  const ringSeconds = rng.range(0.4, 2.5);
  const out = new Float32Array(samplesFor(ringSeconds, sampleRate));
  BAR_MODES.forEach((ratio, mode) => {
    const hz = baseHz * ratio * rng.range(0.98, 1.02);
    if (hz > sampleRate * 0.4) return;
    // Higher modes die away sooner, which is what makes the ring mellow as it fades.
    const seconds = ringSeconds / (1 + mode * 0.8);
    const partial = renderTone(samplesFor(seconds, sampleRate), sampleRate, {
      waveform: 'sine',
      startHz: hz,
      phase: rng.next(),
    });
    applyPercussive(partial, sampleRate, 0.001, seconds);
    mixInto(out, partial, 0, 1 / (1 + mode * 0.6));
  });
  const strike = whiteNoise(samplesFor(0.02, sampleRate), rng);
  stateVariableFilter(strike, sampleRate, 'highpass', 0.7, 2000);
  applyPercussive(strike, sampleRate, 0.0003, 0.02);
  mixInto(out, strike, 0, 0.6);
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-3, -1),
    fadeInSeconds: 0.0005,
    leadingSilenceSeconds: rng.range(0, 0.04),
  });
  const ringing = ringSeconds > 1.4;
  return {
    title: joinWords('Metal', object.noun, 'Hit'),
    details: [
      joinWords(ringing ? 'Ringing' : 'Short', 'Strike near', noteNameOfHz(baseHz), `(${formatHzFine(baseHz)})`),
      `${durationAdjective(ringSeconds)} Ring`,
    ],
    description:
      `A metal ${object.word} struck once, ringing at ${formatHz(baseHz)} with bright overtones for ` +
      `${formatSeconds(ringSeconds)}.`,
    tags: cleanTags([
      'metal',
      'metallic',
      'clang',
      'hit',
      'impact',
      'ring',
      object.word,
      ringing && 'ringing',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
