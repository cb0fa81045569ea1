import { applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { addCrackle, whiteNoise } from '../dsp/noise.ts';
import { renderTone } from '../dsp/oscillators.ts';
import { cleanTags, durationAdjective, formatHzFine, formatSeconds, joinWords, lengthTags } from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/**
 * Explosions: a noise blast whose brightness collapses as it decays, over a low sine boom,
 * with debris crackle on top. Distant ones lose their highs, as air does to far sounds.
 */
export function generateExplosion({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = rng.range(1.5, 3.9);
  const distant = rng.chance(0.3);
  const big = !distant && rng.chance(0.5);
  const brightHz = distant ? rng.range(500, 1000) : rng.range(2500, 7000);
  const boomHz = rng.range(35, 65);
  const debris = !distant && rng.chance(0.6);
  const length = samplesFor(seconds, sampleRate);

  const boom = renderTone(length, sampleRate, {
    waveform: 'sine',
    startHz: boomHz * 2.5,
    endHz: boomHz,
    glideSeconds: 0.25,
  });
  applyPercussive(boom, sampleRate, 0.004, seconds * (big ? 0.9 : 0.6));

  const channels = [0, 1].map(() => {
    const blast = whiteNoise(length, rng);
    stateVariableFilter(blast, sampleRate, 'lowpass', 0.8, (t) => 120 + brightHz * Math.exp(-t * (big ? 2 : 3.5)));
    applyPercussive(blast, sampleRate, distant ? 0.03 : 0.003, seconds);
    if (debris) {
      const crackle = new Float32Array(samplesFor(Math.min(seconds, 1.2), sampleRate));
      addCrackle(crackle, sampleRate, rng, 40, 0.6);
      stateVariableFilter(crackle, sampleRate, 'bandpass', 1, 2500);
      applyPercussive(crackle, sampleRate, 0.05, crackle.length / sampleRate);
      mixInto(blast, crackle, samplesFor(0.05, sampleRate), 0.5);
    }
    mixInto(blast, boom, 0, big ? 1.4 : 1);
    return blast;
  });
  const audio = finishAudio(channels, sampleRate, {
    peakDb: rng.range(-2, -1),
    fadeOutSeconds: 0.05,
    leadingSilenceSeconds: rng.chance(0.5) ? rng.range(0, 0.05) : 0,
  });
  const size = distant ? 'distant' : big ? 'big' : 'small';
  return {
    title: distant ? 'Distant Explosion' : big ? 'Big Explosion' : 'Explosion',
    details: [
      joinWords(distant ? 'Muffled' : 'Sharp', 'Blast', debris ? 'with Debris' : ''),
      `${Math.round(boomHz)} Hz Boom`,
      `${durationAdjective(seconds)} Rumble`,
    ],
    refinements: [`Bright to ${formatHzFine(brightHz)}`],
    description:
      `A ${size} explosion: a ${distant ? 'muffled' : 'sharp'} blast over a low boom near ${Math.round(boomHz)} Hz` +
      `${debris ? ', with crackling debris,' : ''} rumbling away over ${formatSeconds(seconds)}.`,
    tags: cleanTags([
      'explosion',
      'boom',
      'blast',
      'bomb',
      'rumble',
      'action',
      'war',
      size,
      distant && 'muffled',
      debris && 'debris',
      'stereo',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
