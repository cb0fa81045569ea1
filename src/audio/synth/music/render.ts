import { peakOf, samplesFor, saturateInPlace, scaleInPlace } from '../dsp/mix.ts';
import { addReverb } from '../dsp/reverb.ts';
import type { Random } from '../random.ts';
import { arrangeBass, arrangeChords, arrangeDrums, arrangeLead, emptyBuses } from './arrangement.ts';
import { applyLofiCharacter, type LofiSpec } from './lofi-character.ts';
import { loopSeconds, type SongPlan } from './song-plan.ts';

/** Room for note releases and the reverb tail past the loop's end, folded back onto its start. */
const TAIL_SECONDS = 2;

/** Renders a plan to a seamless stereo loop, exactly `bars` long. */
export function renderSong(plan: SongPlan, rng: Random, lofi: LofiSpec | null): Float32Array[] {
  const { sampleRate } = plan;
  const loopLength = samplesFor(loopSeconds(plan), sampleRate);
  const buses = emptyBuses(loopLength / sampleRate + TAIL_SECONDS, sampleRate);
  arrangeDrums(plan, rng, buses);
  arrangeBass(plan, rng, buses);
  arrangeChords(plan, rng, buses);
  arrangeLead(plan, rng, buses);
  const ambient = plan.style.drums === null;
  addReverb(buses.left, buses.right, buses.send, sampleRate, { decaySeconds: ambient ? 3 : 1.6, damping: 0.45, size: ambient ? 1.6 : 1 }, plan.style.reverbWet * 2.5);

  const channels = [buses.left, buses.right].map((bus) => {
    // Whatever rings past the end belongs to the loop's start when it repeats.
    const loop = bus.slice(0, loopLength);
    for (let i = loopLength; i < bus.length; i++) loop[i - loopLength] = loop[i - loopLength]! + bus[i]!;
    return loop;
  });
  if (lofi) applyLofiCharacter(channels, sampleRate, rng, lofi);
  // Gentle bus saturation: tames drum peaks so the loop's level is set by the music, not the kick.
  const peak = Math.max(...channels.map(peakOf));
  for (const channel of channels) {
    scaleInPlace(channel, 1 / peak);
    saturateInPlace(channel, 1.4);
  }
  return channels;
}
