import { stateVariableFilter } from '../dsp/filters.ts';
import { finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { brownNoise, whiteNoise } from '../dsp/noise.ts';
import { capitalize, cleanTags, formatSeconds, secondsAdjective, secondsWord, withArticle } from '../naming.ts';
import type { Random } from '../random.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';
import {
  ambientFadeSeconds,
  ambientLoudnessCeiling,
  applyGainCurve,
  pickAmbientSeconds,
  STEREO_OFFSET_SECONDS,
  stereoFromBed,
} from './shared.ts';

/**
 * Waves: swells of noise that build, break (loud and bright) and draw back in a long hiss.
 * One curve drives both loudness and brightness, because that is how surf sounds.
 */
export function generateWaves({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = pickAmbientSeconds(rng);
  const periodSeconds = rng.range(5, 11);
  const calm = rng.chance(0.5);
  const starts = waveStarts(rng, seconds + 2, periodSeconds);
  const length = samplesFor(seconds, sampleRate);
  const offset = samplesFor(STEREO_OFFSET_SECONDS, sampleRate);
  const swell = (t: number): number => waveLevel(starts, t, periodSeconds);
  const surf = brownNoise(length + offset, rng);
  const foam = whiteNoise(length + offset, rng);
  stateVariableFilter(surf, sampleRate, 'lowpass', 0.7, (t) => 250 + (calm ? 900 : 1800) * swell(t));
  stateVariableFilter(foam, sampleRate, 'bandpass', 0.5, (t) => 1500 + 3000 * swell(t));
  mixInto(surf, foam, 0, calm ? 0.08 : 0.15);
  applyGainCurve(surf, sampleRate, (t) => 0.12 + 0.88 * swell(t));
  const channels = stereoFromBed(surf, length, offset);
  const audio = finishAudio(channels, sampleRate, {
    peakDb: rng.range(-3, -1),
    maxRmsDb: ambientLoudnessCeiling(rng),
    fadeInSeconds: ambientFadeSeconds(seconds),
    fadeOutSeconds: ambientFadeSeconds(seconds),
  });
  const mood = calm ? 'calm' : 'rolling';
  return {
    title: calm ? 'Calm Ocean Waves' : 'Rolling Surf Waves',
    details: [`Breaking Every ${secondsWord(periodSeconds)}`, secondsWord(seconds)],
    description: capitalize(
      `${withArticle(secondsAdjective(seconds))} beach ambience of ${mood} ocean waves breaking about every ` +
        `${formatSeconds(periodSeconds)} and washing back.`,
    ),
    tags: cleanTags([
      'waves',
      'ocean',
      'sea',
      'beach',
      'surf',
      'shore',
      'water',
      'nature',
      'ambience',
      'ambient',
      'background',
      'relaxing',
      mood,
      'stereo',
    ]),
    audio,
  };
}

function waveStarts(rng: Random, seconds: number, periodSeconds: number): number[] {
  const starts: number[] = [];
  for (let t = -periodSeconds * rng.next(); t < seconds; t += periodSeconds * rng.range(0.8, 1.2)) starts.push(t);
  return starts;
}

/** The level of the most recent wave: a slow rise to the break, then a long draw-back. */
function waveLevel(starts: readonly number[], t: number, periodSeconds: number): number {
  let level = 0;
  for (const start of starts) {
    const x = (t - start) / periodSeconds;
    if (x < 0 || x > 1.6) continue;
    const value = x < 0.35 ? (x / 0.35) ** 2 : Math.exp(-(x - 0.35) * 3);
    if (value > level) level = value;
  }
  return level;
}
