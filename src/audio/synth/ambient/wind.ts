import { stateVariableFilter } from '../dsp/filters.ts';
import { finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { pinkNoise } from '../dsp/noise.ts';
import {
  capitalize,
  cleanTags,
  formatHz,
  formatHzFine,
  joinWords,
  secondsAdjective,
  secondsWord,
  withArticle,
} from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';
import {
  ambientFadeSeconds,
  ambientLoudnessCeiling,
  applyGainCurve,
  pickAmbientSeconds,
  smoothRandomCurve,
  STEREO_OFFSET_SECONDS,
  stereoFromBed,
} from './shared.ts';

/**
 * Wind: band-passed noise whose centre and level follow the same slow gust curve (stronger gusts
 * are louder and brighter). Howling wind adds a narrow resonance that whistles as it moves.
 */
const STRENGTHS = {
  breeze: { lowHz: 200, highHz: 700, gustSpacing: 4, floor: 0.45, whistle: 0 },
  gusty: { lowHz: 250, highHz: 1400, gustSpacing: 2.2, floor: 0.2, whistle: 0 },
  howling: { lowHz: 300, highHz: 1200, gustSpacing: 3, floor: 0.3, whistle: 0.5 },
} as const;

export function generateWind({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = pickAmbientSeconds(rng);
  const strengthName = rng.weighted([
    ['breeze', 3],
    ['gusty', 3],
    ['howling', 2],
  ] as const);
  const strength = STRENGTHS[strengthName];
  const gust = smoothRandomCurve(rng, seconds + 1, strength.gustSpacing);
  const whistleHz = rng.range(500, 1100);
  const length = samplesFor(seconds, sampleRate);
  const offset = samplesFor(STEREO_OFFSET_SECONDS, sampleRate);
  const source = pinkNoise(length + offset, rng);
  const bed = Float32Array.from(source);
  stateVariableFilter(
    bed,
    sampleRate,
    'bandpass',
    0.9,
    (t) => strength.lowHz * (strength.highHz / strength.lowHz) ** gust(t),
  );
  if (strength.whistle > 0) {
    stateVariableFilter(source, sampleRate, 'bandpass', 18, (t) => whistleHz * (0.8 + 0.6 * gust(t)));
    mixInto(bed, source, 0, strength.whistle * 3);
  }
  applyGainCurve(bed, sampleRate, (t) => strength.floor + (1 - strength.floor) * gust(t));
  // The right side hears each gust a moment later, which widens the image naturally.
  const channels = stereoFromBed(bed, length, offset);
  const audio = finishAudio(channels, sampleRate, {
    peakDb: rng.range(-4, -1.5),
    maxRmsDb: ambientLoudnessCeiling(rng),
    fadeInSeconds: ambientFadeSeconds(seconds),
    fadeOutSeconds: ambientFadeSeconds(seconds),
  });
  // The band's centre on average over the sound: where most of this wind sits.
  const centres = Array.from({ length: 64 }, (_, i) => {
    return strength.lowHz * (strength.highHz / strength.lowHz) ** gust((i / 63) * seconds);
  });
  const centreHz = centres.reduce((sum, hz) => sum + hz, 0) / centres.length;
  const whistling = strength.whistle > 0 && `Whistling at ${formatHzFine(whistleHz)}`;
  const descriptions = {
    breeze: 'a gentle breeze rising and falling softly',
    gusty: `gusty wind with strong gusts sweeping up to about ${formatHz(strength.highHz)}`,
    howling: `howling wind that whistles around ${formatHz(whistleHz)} as the gusts move`,
  } as const;
  return {
    title: strengthName === 'breeze' ? 'Gentle Breeze' : strengthName === 'gusty' ? 'Gusty Wind' : 'Howling Wind',
    details: [joinWords('Centred near', formatHzFine(centreHz), whistling), secondsWord(seconds)],
    description: capitalize(
      `${withArticle(secondsAdjective(seconds))} outdoor ambience of ${descriptions[strengthName]}.`,
    ),
    tags: cleanTags([
      'wind',
      'air',
      'weather',
      'nature',
      'outdoor',
      'ambience',
      'ambient',
      'background',
      strengthName,
      strengthName === 'breeze' && 'calm',
      strengthName === 'gusty' && 'gusts',
      strengthName === 'howling' && 'whistling',
      strengthName === 'howling' && 'storm',
      'stereo',
    ]),
    audio,
  };
}
