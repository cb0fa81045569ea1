import { applyBreakpoints } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { sineCycle } from '../dsp/oscillators.ts';
import { cleanTags, formatHzFine, formatSeconds, joinWords, lengthTags, secondsWord } from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/**
 * A creaking hinge is stick-slip friction: a train of tiny jolts whose rate wanders as the door
 * moves, ringing a few narrow resonances of the wood. Rate gives the pitch, resonances the timbre.
 */
export function generateDoorCreak({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = rng.range(1, 3.2);
  const startRate = rng.range(25, 70);
  const endRate = rng.range(40, 160);
  const wobbleHz = rng.range(0.8, 3);
  const squeaky = endRate > 110;
  const length = samplesFor(seconds, sampleRate);
  const jolts = new Float32Array(length);
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const t = i / length;
    const rate = (startRate + (endRate - startRate) * t) * (1 + 0.25 * sineCycle(t * seconds * wobbleHz));
    phase += rate / sampleRate;
    if (phase >= 1) {
      phase -= 1;
      jolts[i] = 0.5 + 0.5 * rng.next();
    }
  }
  const out = new Float32Array(length);
  const bodyHz = rng.range(500, 1100);
  for (const [ratio, q, gain] of [
    [1, 12, 1],
    [2.3, 15, 0.6],
    [4.1, 10, 0.3],
  ] as const) {
    const resonance = Float32Array.from(jolts);
    stateVariableFilter(resonance, sampleRate, 'bandpass', q, bodyHz * ratio);
    mixInto(out, resonance, 0, gain);
  }
  stateVariableFilter(out, sampleRate, 'highpass', 0.7, 150);
  applyBreakpoints(out, sampleRate, [
    [0, 0],
    [seconds * 0.15, 1],
    [seconds * 0.7, 0.8],
    [seconds, 0],
  ]);
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-5, -2),
    fadeOutSeconds: 0.05,
    leadingSilenceSeconds: rng.range(0, 0.05),
  });
  const speed = seconds > 2.2 ? 'slow' : 'quick';
  return {
    title: 'Door Creak',
    details: [
      joinWords(speed === 'slow' ? 'Slow' : 'Quick', squeaky ? 'Squeaky' : 'Groaning', 'Hinge'),
      `${formatHzFine(bodyHz)} Wood Tone`,
      secondsWord(seconds),
    ],
    refinements: [`${Math.round(startRate)} to ${Math.round(endRate)} Jolts a Second`],
    description:
      `A wooden door ${speed === 'slow' ? 'slowly' : 'quickly'} creaking open on an old hinge, ` +
      `${squeaky ? 'rising to a squeak' : 'with a low groan'}, over ${formatSeconds(seconds)}.`,
    tags: cleanTags([
      'door',
      'creak',
      'creaky',
      'hinge',
      'wood',
      'open',
      'horror',
      'spooky',
      'old',
      speed,
      squeaky ? 'squeak' : 'groan',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
