import { applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { whiteNoise } from '../dsp/noise.ts';
import { renderTone } from '../dsp/oscillators.ts';
import { addReverb } from '../dsp/reverb.ts';
import {
  capitalize,
  cleanTags,
  countWord,
  durationAdjective,
  formatHzFine,
  formatMs,
  formatSeconds,
  joinWords,
  lengthTags,
} from '../naming.ts';
import type { Random } from '../random.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** A wooden hit: a resonant band of noise (the panel) over a short low tone (the frame). */
function woodHit(rng: Random, sampleRate: number, panelHz: number, seconds: number, weight: number): Float32Array {
  const panel = whiteNoise(samplesFor(seconds, sampleRate), rng);
  stateVariableFilter(panel, sampleRate, 'bandpass', 3, panelHz);
  applyPercussive(panel, sampleRate, 0.001, seconds);
  const frame = renderTone(panel.length, sampleRate, {
    waveform: 'sine',
    startHz: panelHz * 0.5,
    endHz: panelHz * 0.35,
    glideSeconds: 0.05,
  });
  applyPercussive(frame, sampleRate, 0.001, seconds * 0.7);
  mixInto(panel, frame, 0, weight);
  return panel;
}

/** Door slams (a hit, a latch rattle, the room answering) and knocks (a few raps). */
export function generateDoor({ rng, sampleRate }: SynthContext): SoundDraft {
  const slam = rng.chance(0.55);
  const roomSeconds = rng.range(0.4, 1.1);
  const panelHz = rng.range(slam ? 140 : 180, slam ? 260 : 420);
  const raps = slam ? 1 : rng.int(2, 4);
  const rapGap = rng.range(0.13, 0.24);
  const hitSeconds = slam ? rng.range(0.25, 0.45) : rng.range(0.06, 0.12);
  const dry = new Float32Array(samplesFor(rapGap * (raps - 1) + hitSeconds + roomSeconds, sampleRate));
  for (let rap = 0; rap < raps; rap++) {
    const accent = rap === raps - 1 && raps > 2 ? 1 : rng.range(0.75, 0.95);
    mixInto(
      dry,
      woodHit(rng, sampleRate, panelHz * rng.range(0.95, 1.05), hitSeconds, slam ? 2 : 1),
      Math.round(rap * rapGap * sampleRate),
      accent,
    );
  }
  if (slam) {
    // The latch: a couple of small bright clicks just after the hit.
    for (let i = 0; i < rng.int(1, 3); i++) {
      const click = whiteNoise(samplesFor(0.015, sampleRate), rng);
      stateVariableFilter(click, sampleRate, 'bandpass', 4, rng.range(2500, 4500));
      applyPercussive(click, sampleRate, 0.0005, 0.015);
      mixInto(dry, click, Math.round((0.03 + i * rng.range(0.02, 0.05)) * sampleRate), 0.25);
    }
  }
  const left = Float32Array.from(dry);
  const right = Float32Array.from(dry);
  addReverb(
    left,
    right,
    dry,
    sampleRate,
    { decaySeconds: roomSeconds, damping: 0.4, size: rng.range(0.5, 1) },
    slam ? 0.6 : 0.35,
  );
  const audio = finishAudio([left, right], sampleRate, {
    peakDb: rng.range(-3, -1),
    fadeInSeconds: 0.0005,
    leadingSilenceSeconds: rng.range(0, 0.05),
    fadeOutSeconds: 0.05,
  });
  const seconds = durationOf(audio);
  if (slam) {
    return {
      title: 'Door Slam',
      details: [
        joinWords(panelHz < 190 ? 'Heavy' : 'Wooden', roomSeconds > 0.8 ? 'Echoing' : 'Tight', 'Slam'),
        `${formatHzFine(panelHz)} Panel`,
        `${durationAdjective(roomSeconds)} Room Ring`,
      ],
      refinements: [`${formatMs(hitSeconds)} Hit`],
      description:
        `A ${panelHz < 190 ? 'heavy' : 'wooden'} door slammed shut with a rattling latch, ringing in ` +
        `a room for ${formatSeconds(roomSeconds)}.`,
      tags: cleanTags([
        'door',
        'slam',
        'bang',
        'shut',
        'close',
        'impact',
        'wood',
        'room',
        'reverb',
        panelHz < 190 && 'heavy',
        ...lengthTags(seconds),
      ]),
      audio,
    };
  }
  return {
    title: 'Door Knock',
    details: [
      joinWords(capitalize(countWord(raps)), 'Raps', formatMs(rapGap), 'Apart'),
      `${formatHzFine(panelHz)} Panel`,
    ],
    refinements: [`${formatMs(hitSeconds)} Raps`],
    description: `${capitalize(countWord(raps))} knocks on a wooden door, ${formatSeconds(rapGap)} apart.`,
    tags: cleanTags(['door', 'knock', 'knocking', 'wood', 'rap', 'visitor', 'foley', ...lengthTags(seconds)]),
    audio,
  };
}
