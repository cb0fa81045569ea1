import { applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { whiteNoise } from '../dsp/noise.ts';
import { capitalize, cleanTags, countWord, formatMs, formatSeconds, joinWords, lengthTags } from '../naming.ts';
import type { Random } from '../random.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/**
 * Footsteps: each step is a heel and then a toe burst of noise shaped by the surface: its band,
 * its length, and for loose surfaces a grainy crunch (noise gated in random tiny grains).
 */
const SURFACES = [
  { name: 'gravel', hz: 3000, q: 0.7, seconds: 0.14, grainy: true },
  { name: 'snow', hz: 1800, q: 0.6, seconds: 0.18, grainy: true },
  { name: 'wood', hz: 350, q: 2.5, seconds: 0.08, grainy: false },
  { name: 'concrete', hz: 1200, q: 0.8, seconds: 0.05, grainy: false },
  { name: 'grass', hz: 2200, q: 0.5, seconds: 0.16, grainy: true },
] as const;

export function generateFootsteps({ rng, sampleRate }: SynthContext): SoundDraft {
  const surface = rng.pick(SURFACES);
  const running = rng.chance(0.3);
  const paceSeconds = running ? rng.range(0.26, 0.34) : rng.range(0.45, 0.62);
  const steps = Math.min(rng.int(3, 8), Math.floor(3.5 / paceSeconds));
  const out = new Float32Array(samplesFor(paceSeconds * (steps - 1) + surface.seconds * 2 + 0.1, sampleRate));
  for (let step = 0; step < steps; step++) {
    const offset = Math.round((step * paceSeconds + rng.range(0, 0.02)) * sampleRate);
    const level = (running ? 1 : 0.8) * rng.range(0.75, 1) * (step % 2 === 0 ? 1 : 0.88);
    mixInto(out, footfall(rng, sampleRate, surface), offset, level);
  }
  const peakDb = rng.range(-3, -1);
  const audio = finishAudio([out], sampleRate, { peakDb, leadingSilenceSeconds: rng.range(0, 0.05) });
  const gait = running ? 'running' : 'walking';
  return {
    title: 'Footsteps',
    details: [
      joinWords(capitalize(countWord(steps)), running ? 'Running' : 'Walking', 'Steps on', capitalize(surface.name)),
      `${formatMs(paceSeconds)} Apart`,
    ],
    refinements: [`Peaking at ${peakDb.toFixed(1)} dB`],
    description:
      `${capitalize(countWord(steps))} footsteps ${gait} on ${surface.name}, one every ` +
      `${formatSeconds(paceSeconds)}.`,
    tags: cleanTags([
      'footsteps',
      'steps',
      'footstep',
      'foley',
      gait,
      surface.name,
      surface.grainy && 'crunchy',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}

function footfall(rng: Random, sampleRate: number, surface: (typeof SURFACES)[number]): Float32Array {
  const seconds = surface.seconds * rng.range(0.8, 1.2);
  const toeDelay = rng.range(0.03, 0.07);
  const out = new Float32Array(samplesFor(seconds * 2 + toeDelay, sampleRate));
  for (const [delay, gain] of [
    [0, 1],
    [toeDelay, 0.6],
  ] as const) {
    const burst = whiteNoise(samplesFor(seconds, sampleRate), rng);
    if (surface.grainy) {
      // Crunch: hold a random gain for ~1.5 ms at a time so the noise breaks into grains.
      const grain = Math.max(1, Math.round(0.0015 * sampleRate));
      let gainHeld = 1;
      for (let i = 0; i < burst.length; i++) {
        if (i % grain === 0) gainHeld = rng.next() < 0.35 ? 1 : 0.15;
        burst[i] = burst[i]! * gainHeld;
      }
    }
    stateVariableFilter(burst, sampleRate, 'bandpass', surface.q, surface.hz * rng.range(0.85, 1.15));
    applyPercussive(burst, sampleRate, 0.003, seconds);
    mixInto(out, burst, Math.round(delay * sampleRate), gain);
  }
  return out;
}
