import { applyPercussive } from '../dsp/envelopes.ts';
import { onePoleLowpass, stateVariableFilter } from '../dsp/filters.ts';
import { finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { addCrackle, brownNoise, whiteNoise } from '../dsp/noise.ts';
import {
  capitalize,
  cleanTags,
  countWord,
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

/** A fire: a soft low roar that breathes, constant fine crackle, and now and then a bigger pop. */
export function generateCampfire({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = pickAmbientSeconds(rng);
  const lively = rng.chance(0.5);
  const length = samplesFor(seconds, sampleRate);
  const breath = smoothRandomCurve(rng, seconds, 1.5);
  const offset = samplesFor(STEREO_OFFSET_SECONDS, sampleRate);
  const roar = brownNoise(length + offset, rng);
  const roarHz = rng.range(300, 600);
  onePoleLowpass(roar, sampleRate, roarHz);
  applyGainCurve(roar, sampleRate, (t) => 0.5 + 0.5 * breath(t));
  const channels = stereoFromBed(roar, length, offset);
  // Crackles and pops are events: each side gets its own, or the delay would be heard as an echo.
  const pops = Math.round(seconds * (lively ? 0.8 : 0.3) * 0.5);
  for (const channel of channels) {
    const crackle = new Float32Array(length);
    addCrackle(crackle, sampleRate, rng, lively ? 14 : 6, 0.8);
    stateVariableFilter(crackle, sampleRate, 'bandpass', 0.8, 3000);
    mixInto(channel, crackle, 0, 0.7);
    for (let i = 0; i < pops; i++) {
      const pop = whiteNoise(samplesFor(0.03, sampleRate), rng);
      stateVariableFilter(pop, sampleRate, 'bandpass', 2, rng.range(800, 2000));
      applyPercussive(pop, sampleRate, 0.0005, 0.03);
      mixInto(channel, pop, Math.floor(rng.next() * length), rng.range(0.8, 1.6));
    }
  }
  const audio = finishAudio(channels, sampleRate, {
    peakDb: rng.range(-4, -1.5),
    maxRmsDb: ambientLoudnessCeiling(rng),
    fadeInSeconds: ambientFadeSeconds(seconds),
    fadeOutSeconds: ambientFadeSeconds(seconds),
  });
  return {
    title: 'Campfire',
    details: [
      joinWords(lively ? 'Crackling' : 'Gentle', 'Fire with', `${capitalize(countWord(pops))} Pops`),
      `Roar under ${formatHzFine(roarHz)}`,
      secondsWord(seconds),
    ],
    description: capitalize(
      `${withArticle(secondsAdjective(seconds))} ${lively ? 'lively, crackling' : 'gentle'} campfire: a soft ` +
        `roar of flames with crackles and the odd pop of burning wood.`,
    ),
    tags: cleanTags([
      'fire',
      'campfire',
      'crackle',
      'crackling',
      'flames',
      'burning',
      'wood',
      'cozy',
      'warm',
      'outdoor',
      'ambience',
      'ambient',
      lively ? 'lively' : 'gentle',
      'stereo',
    ]),
    audio,
  };
}
