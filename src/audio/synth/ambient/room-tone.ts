import { onePoleLowpass, stateVariableFilter } from '../dsp/filters.ts';
import { finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { brownNoise, pinkNoise } from '../dsp/noise.ts';
import { renderTone } from '../dsp/oscillators.ts';
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
  applyGainCurve,
  pickAmbientSeconds,
  smoothRandomCurve,
  STEREO_OFFSET_SECONDS,
  stereoFromBed,
} from './shared.ts';

/**
 * Room tone: the near-silence of a room, a low rumble and soft air hiss, optionally with the
 * whoosh of ventilation. It is quiet on purpose: editors lay it under dialogue.
 */
export function generateRoomTone({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = pickAmbientSeconds(rng);
  const ventilation = rng.chance(0.4);
  const warm = rng.chance(0.5);
  const hissHz = rng.range(1000, 3000);
  const length = samplesFor(seconds, sampleRate);
  const drift = smoothRandomCurve(rng, seconds, 5);
  const offset = samplesFor(STEREO_OFFSET_SECONDS, sampleRate);
  const rumble = brownNoise(length + offset, rng);
  onePoleLowpass(rumble, sampleRate, warm ? 150 : 300);
  const hiss = pinkNoise(length + offset, rng);
  onePoleLowpass(hiss, sampleRate, hissHz);
  mixInto(rumble, hiss, 0, warm ? 0.15 : 0.35);
  if (ventilation) {
    const air = pinkNoise(length + offset, rng);
    stateVariableFilter(air, sampleRate, 'bandpass', 1.2, rng.range(180, 420));
    mixInto(rumble, air, 0, 0.6);
  }
  applyGainCurve(rumble, sampleRate, (t) => 0.85 + 0.15 * drift(t));
  const channels = stereoFromBed(rumble, length, offset);
  if (ventilation) {
    const hum = renderTone(length, sampleRate, { waveform: 'sine', startHz: rng.pick([50, 60]) * 2 });
    for (const channel of channels) mixInto(channel, hum, 0, 0.02);
  }
  const audio = finishAudio(channels, sampleRate, {
    peakDb: rng.range(-30, -22),
    fadeInSeconds: ambientFadeSeconds(seconds),
    fadeOutSeconds: ambientFadeSeconds(seconds),
  });
  const character = warm ? 'warm, low' : 'airy';
  return {
    title: 'Room Tone',
    details: [
      joinWords(warm ? 'Warm' : 'Airy', 'Quiet Room', ventilation && 'with Ventilation'),
      `Hiss under ${formatHzFine(hissHz)}`,
      secondsWord(seconds),
    ],
    description: capitalize(
      `${withArticle(secondsAdjective(seconds))} ${character} room tone, the quiet background of an empty indoor ` +
        `room${ventilation ? ' with a ventilation system running' : ''}.`,
    ),
    tags: cleanTags([
      'room-tone',
      'room',
      'tone',
      'quiet',
      'indoor',
      'interior',
      'background',
      'ambience',
      'ambient',
      'silence',
      warm ? 'warm' : 'airy',
      ventilation && 'ventilation',
      ventilation && 'air-conditioning',
      ventilation && 'hvac',
    ]),
    audio,
  };
}
