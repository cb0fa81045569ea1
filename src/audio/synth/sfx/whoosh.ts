import { applyBreakpoints } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { samplesFor } from '../dsp/mix.ts';
import { pinkNoise, whiteNoise } from '../dsp/noise.ts';
import {
  capitalize,
  cleanTags,
  formatHz,
  formatHzFine,
  formatMs,
  formatSeconds,
  joinWords,
  lengthTags,
  secondsWord,
} from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** Whooshes: noise through a band-pass whose centre rises to a peak and falls, swelling with it. */
export function generateWhoosh({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = rng.logRange(0.25, 2.2);
  const peakAt = rng.range(0.35, 0.65);
  const lowHz = rng.logRange(150, 500);
  const highHz = rng.logRange(1500, 6000);
  const q = rng.range(0.8, 2.5);
  const airy = rng.chance(0.5);
  const passBy = rng.chance(0.5);
  const length = samplesFor(seconds, sampleRate);
  const source = airy ? whiteNoise(length, rng) : pinkNoise(length, rng);
  const peakSeconds = seconds * peakAt;
  stateVariableFilter(source, sampleRate, 'bandpass', q, (t) => {
    const distance = t < peakSeconds ? 1 - t / peakSeconds : (t - peakSeconds) / (seconds - peakSeconds);
    return highHz * (lowHz / highHz) ** distance;
  });
  applyBreakpoints(source, sampleRate, [
    [0, 0],
    [peakSeconds * 0.6, 0.5],
    [peakSeconds, 1],
    [seconds, 0],
  ]);

  let channels = [source];
  let pass = '';
  if (passBy) {
    // Moving from one side to the other makes it read as something passing by.
    const fromLeft = rng.chance(0.5);
    pass = fromLeft ? 'Left to Right' : 'Right to Left';
    const left = new Float32Array(length);
    const right = new Float32Array(length);
    // Equal-power pan from one side to the other: (cos, sin) rotated a little every sample.
    const step = (fromLeft ? 1 : -1) * (Math.PI / 2 / length);
    const [cosStep, sinStep] = [Math.cos(step), Math.sin(step)];
    let [leftGain, rightGain] = fromLeft ? [1, 0] : [0, 1];
    for (let i = 0; i < length; i++) {
      left[i] = source[i]! * leftGain;
      right[i] = source[i]! * rightGain;
      const nextLeft = leftGain * cosStep - rightGain * sinStep;
      rightGain = rightGain * cosStep + leftGain * sinStep;
      leftGain = nextLeft;
    }
    channels = [left, right];
  }
  const audio = finishAudio(channels, sampleRate, { peakDb: rng.range(-4, -1), fadeOutSeconds: 0.03 });
  const speed = seconds < 0.6 ? 'fast' : seconds > 1.4 ? 'slow' : '';
  const noun = seconds < 0.5 ? 'Swish' : airy ? 'Whoosh' : 'Swoosh';
  return {
    title: noun,
    details: [
      joinWords(capitalize(speed), airy ? 'Airy' : 'Deep', passBy ? `Pass-By ${pass}` : 'Sweep'),
      `up to ${formatHzFine(highHz)}`,
      secondsWord(seconds),
    ],
    refinements: [`from ${formatHzFine(lowHz)}`, `Peak at ${formatMs(peakSeconds)}`],
    description:
      `A ${speed ? `${speed} ` : ''}${airy ? 'airy' : 'deep'} ${noun.toLowerCase()} of filtered air sweeping up ` +
      `to ${formatHz(highHz)} and back down` +
      ` over ${formatSeconds(seconds)}${passBy ? ', moving across the stereo field' : ''}.`,
    tags: cleanTags([
      'whoosh',
      'swoosh',
      noun.toLowerCase(),
      'transition',
      'air',
      'movement',
      'swipe',
      speed,
      airy ? 'airy' : 'deep',
      passBy && 'pass-by',
      passBy && 'stereo',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
