import { finishAudio } from '../dsp/finish.ts';
import type { SoundGenerator, SynthContext } from '../sound.ts';
import { describeSong } from './describe.ts';
import { pickLofiSpec } from './lofi-character.ts';
import { renderSong } from './render.ts';
import { planSong } from './song-plan.ts';

/** Music and lo-fi loops: plan the song, render it, then name it from the plan. */
function generateLoop(context: SynthContext, category: 'MUSIC' | 'LOFI'): ReturnType<SoundGenerator> {
  const { rng, sampleRate } = context;
  const plan = planSong(rng, category, sampleRate);
  const lofi = category === 'LOFI' ? pickLofiSpec(rng) : null;
  const channels = renderSong(plan, rng, lofi);
  // Loops are cut at bar lines: the fades only need to be long enough not to click.
  const audio = finishAudio(channels, sampleRate, {
    peakDb: rng.range(-2, -1),
    maxRmsDb: rng.range(-16, -13),
    fadeInSeconds: 0.003,
    fadeOutSeconds: 0.01,
  });
  return { ...describeSong(plan, rng, audio), loop: true };
}

export const generateMusic: SoundGenerator = (context) => generateLoop(context, 'MUSIC');
export const generateLofi: SoundGenerator = (context) => generateLoop(context, 'LOFI');
