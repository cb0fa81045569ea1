import { applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { brownNoise, whiteNoise } from '../dsp/noise.ts';
import { sineCycle } from '../dsp/oscillators.ts';
import {
  capitalize,
  cleanTags,
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

/** Rain: a dense bed of filtered noise, individual droplets on top, and in storms, thunder. */
const INTENSITIES = {
  light: { cutoffHz: 2500, dropsPerSecond: 8, dropLevel: 0.5, words: ['drizzle', 'gentle', 'soft'] },
  steady: { cutoffHz: 4000, dropsPerSecond: 16, dropLevel: 0.35, words: ['rainfall', 'steady'] },
  heavy: { cutoffHz: 6500, dropsPerSecond: 30, dropLevel: 0.25, words: ['downpour', 'heavy', 'storm'] },
} as const;

export function generateRain({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = pickAmbientSeconds(rng);
  const intensityName = rng.weighted([
    ['light', 3],
    ['steady', 3],
    ['heavy', 2],
  ] as const);
  const intensity = INTENSITIES[intensityName];
  const onRoof = rng.chance(0.3);
  const thunderAt = intensityName === 'heavy' && seconds >= 8 && rng.chance(0.6) ? rng.range(1, seconds - 6) : -1;
  const length = samplesFor(seconds, sampleRate);
  const swell = smoothRandomCurve(rng, seconds, 3);
  const dropsPerSecond = intensity.dropsPerSecond * (onRoof ? 2 : 1);

  const offset = samplesFor(STEREO_OFFSET_SECONDS, sampleRate);
  const bed = whiteNoise(length + offset, rng);
  const hissHz = intensity.cutoffHz * rng.range(0.9, 1.1);
  stateVariableFilter(bed, sampleRate, 'lowpass', 0.6, hissHz);
  stateVariableFilter(bed, sampleRate, 'highpass', 0.6, 250);
  applyGainCurve(bed, sampleRate, (t) => 0.75 + 0.25 * swell(t));
  const channels = stereoFromBed(bed, length, offset);
  for (const channel of channels) {
    const drops = Math.round(dropsPerSecond * seconds * 0.5);
    for (let i = 0; i < drops; i++) {
      addDroplet(
        channel,
        sampleRate,
        Math.floor(rng.next() * length),
        rng.logRange(onRoof ? 800 : 1800, onRoof ? 2500 : 5500),
        rng.range(0.004, 0.02),
        intensity.dropLevel * rng.range(0.3, 1),
      );
    }
  }
  if (thunderAt >= 0) {
    const rumbleSeconds = rng.range(3.5, 5.5);
    const thunder = brownNoise(samplesFor(rumbleSeconds, sampleRate), rng);
    stateVariableFilter(thunder, sampleRate, 'lowpass', 0.7, rng.range(180, 350));
    applyPercussive(thunder, sampleRate, rng.range(0.2, 0.6), rumbleSeconds);
    for (const channel of channels) mixInto(channel, thunder, Math.round(thunderAt * sampleRate), rng.range(2, 2.8));
  }
  const audio = finishAudio(channels, sampleRate, {
    peakDb: rng.range(-3, -1),
    maxRmsDb: ambientLoudnessCeiling(rng),
    fadeInSeconds: ambientFadeSeconds(seconds),
    fadeOutSeconds: ambientFadeSeconds(seconds),
  });
  const thunderText = thunderAt >= 0 ? ' and a roll of distant thunder' : '';
  const place = onRoof ? ' drumming on a roof' : '';
  return {
    title: joinWords(
      intensityName === 'light' ? 'Light Rain' : intensityName === 'heavy' ? 'Heavy Rain' : 'Steady Rain',
      onRoof ? 'On Roof' : '',
      thunderAt >= 0 ? 'And Thunder' : '',
    ),
    details: [`Hiss under ${formatHzFine(hissHz)}`, secondsWord(seconds)],
    description: capitalize(
      `${withArticle(secondsAdjective(seconds))} ${intensityName} rain ambience${place}, with audible ` +
        `droplets${thunderText}.`,
    ),
    tags: cleanTags([
      'rain',
      'weather',
      'nature',
      'water',
      'ambience',
      'ambient',
      'background',
      'relaxing',
      ...intensity.words,
      onRoof && 'roof',
      thunderAt >= 0 && 'thunder',
      thunderAt >= 0 && 'storm',
      'stereo',
    ]),
    audio,
  };
}

/** A droplet: a tiny sine blip whose pitch rises as the bubble forms, decaying in milliseconds. */
function addDroplet(
  buffer: Float32Array,
  sampleRate: number,
  offset: number,
  hz: number,
  seconds: number,
  gain: number,
): void {
  const length = Math.min(buffer.length - offset, samplesFor(seconds, sampleRate));
  const decay = Math.exp(Math.log(0.001) / length);
  let level = gain;
  let phase = 0;
  for (let i = 0; i < length; i++) {
    buffer[offset + i] = buffer[offset + i]! + sineCycle(phase) * level;
    phase += (hz * (1 + (0.6 * i) / length)) / sampleRate;
    level *= decay;
  }
}
