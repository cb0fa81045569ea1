import { onePoleLowpass } from '../dsp/filters.ts';
import { finishAudio } from '../dsp/finish.ts';
import { mixPanned, samplesFor, scaleInPlace } from '../dsp/mix.ts';
import { pinkNoise } from '../dsp/noise.ts';
import { sineCycle } from '../dsp/oscillators.ts';
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
import { ambientFadeSeconds, pickAmbientSeconds, STEREO_OFFSET_SECONDS, stereoFromBed } from './shared.ts';

/**
 * A summer night: a few crickets, each chirping its own pitch and rhythm (a chirp is a few quick
 * pulses of a pure high tone), over faint night air.
 */
export function generateCrickets({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = pickAmbientSeconds(rng);
  const crickets = rng.int(2, 5);
  const length = samplesFor(seconds, sampleRate);
  const offset = samplesFor(STEREO_OFFSET_SECONDS, sampleRate);
  const air = pinkNoise(length + offset, rng);
  onePoleLowpass(air, sampleRate, 800);
  scaleInPlace(air, 0.08);
  const [left, right] = stereoFromBed(air, length, offset) as [Float32Array, Float32Array];
  const pitches: number[] = [];
  for (let c = 0; c < crickets; c++) {
    const hz = rng.range(3800, 5200);
    pitches.push(hz);
    const pulses = rng.int(2, 5);
    const pulseSeconds = rng.range(0.012, 0.02);
    const chirpEvery = rng.range(0.45, 1.1);
    const chirp = new Float32Array(samplesFor(pulses * pulseSeconds * 2, sampleRate));
    const pulseLength = samplesFor(pulseSeconds, sampleRate);
    for (let i = 0; i < chirp.length; i++) {
      const inPulse = i % (pulseLength * 2);
      // Each pulse is a half-sine swell: no edges, so no clicks.
      const envelope = inPulse < pulseLength ? Math.sin((Math.PI * inPulse) / pulseLength) : 0;
      chirp[i] = sineCycle((i * hz) / sampleRate) * envelope;
    }
    const pan = rng.range(-0.8, 0.8);
    const level = rng.range(0.3, 1);
    for (let t = rng.range(0, chirpEvery); t < seconds - 0.2; t += chirpEvery * rng.range(0.9, 1.1)) {
      mixPanned(left, right, chirp, Math.round(t * sampleRate), level, pan);
    }
  }
  const audio = finishAudio([left, right], sampleRate, {
    peakDb: rng.range(-9, -5),
    fadeInSeconds: ambientFadeSeconds(seconds),
    fadeOutSeconds: ambientFadeSeconds(seconds),
  });
  return {
    title: 'Night Crickets',
    details: [
      joinWords(crickets > 3 ? 'Chorus of' : 'Chirping', capitalize(countWord(crickets))),
      `${formatHzFine(Math.min(...pitches))} to ${formatHzFine(Math.max(...pitches))}`,
      secondsWord(seconds),
    ],
    description: capitalize(
      `${withArticle(secondsAdjective(seconds))} summer night ambience: ${countWord(crickets)} crickets chirping ` +
        `at their own pitch and pace over faint night air.`,
    ),
    tags: cleanTags([
      'crickets',
      'insects',
      'night',
      'summer',
      'nature',
      'outdoor',
      'chirping',
      'ambience',
      'ambient',
      'calm',
      'countryside',
      'stereo',
    ]),
    audio,
  };
}
