import { finishAudio } from '../dsp/finish.ts';
import { samplesFor, saturateInPlace } from '../dsp/mix.ts';
import { pinkNoise } from '../dsp/noise.ts';
import { sineCycle } from '../dsp/oscillators.ts';
import { capitalize, cleanTags, secondsAdjective, secondsWord, withArticle } from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';
import { ambientFadeSeconds, applyGainCurve, pickAmbientSeconds, smoothRandomCurve } from './shared.ts';

/**
 * Electrical hum: the mains frequency (50 or 60 Hz) and its first harmonics. A buzzing
 * transformer is the same hum driven into saturation, which adds the rasp of odd harmonics.
 */
export function generateHum({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = pickAmbientSeconds(rng);
  const mainsHz = rng.pick([50, 60] as const);
  const buzzing = rng.chance(0.5);
  const harmonics = [1, rng.range(0.3, 0.8), rng.range(0.2, 0.5), rng.range(0.1, 0.3), rng.range(0.05, 0.15)];
  const length = samplesFor(seconds, sampleRate);
  const out = new Float32Array(length);
  const step = mainsHz / sampleRate;
  for (let i = 0; i < length; i++) {
    const phase = i * step;
    let value = 0;
    for (let h = 0; h < harmonics.length; h++) value += harmonics[h]! * sineCycle(phase * (h + 1));
    out[i] = value * 0.4;
  }
  if (buzzing) saturateInPlace(out, rng.range(2, 3));
  const hiss = pinkNoise(length, rng);
  for (let i = 0; i < length; i++) out[i] = out[i]! + hiss[i]! * 0.01;
  const wobble = smoothRandomCurve(rng, seconds, 2);
  applyGainCurve(out, sampleRate, (t) => 0.9 + 0.1 * wobble(t));
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-14, -8),
    fadeInSeconds: ambientFadeSeconds(seconds),
    fadeOutSeconds: ambientFadeSeconds(seconds),
  });
  return {
    title: buzzing ? 'Transformer Buzz' : 'Electrical Hum',
    details: [
      `${harmonicsWord(harmonics)} ${mainsHz} Hz Mains`,
      `${Math.round(harmonics[1]! * 100)}% Second Harmonic`,
      secondsWord(seconds),
    ],
    description: capitalize(
      `${withArticle(secondsAdjective(seconds))} steady ${mainsHz} Hz mains ` +
        `${buzzing ? 'buzz from a transformer, raspy with odd harmonics' : 'hum with soft harmonics'}.`,
    ),
    tags: cleanTags([
      'hum',
      'electrical',
      'electric',
      'mains',
      'power',
      'drone',
      'industrial',
      'ambience',
      `${mainsHz}hz`,
      buzzing && 'buzz',
      buzzing && 'transformer',
      !buzzing && 'low',
    ]),
    audio,
  };
}

/** How much of the hum is overtones rather than the mains tone itself. */
function harmonicsWord(harmonics: readonly number[]): string {
  const overtones = harmonics.slice(1).reduce((sum, level) => sum + level, 0);
  return overtones > 1.3 ? 'Rich' : overtones > 0.95 ? 'Full' : 'Mellow';
}
