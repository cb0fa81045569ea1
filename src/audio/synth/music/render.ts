import { peakOf, samplesFor, saturateInPlace } from '../dsp/mix.ts';
import { addReverb } from '../dsp/reverb.ts';
import type { Random } from '../random.ts';
import { arrangeBass, arrangeChords, arrangeDrums, arrangeLead, type Buses, emptyBuses } from './arrangement.ts';
import { applyLofiCharacter, type LofiSpec } from './lofi-character.ts';
import { loopSeconds, type SongPlan } from './song-plan.ts';

/** Room for note releases and the reverb tail past a phrase's end. */
const TAIL_SECONDS = 2.5;
/** One pass through the four-chord progression. */
const PHRASE_BARS = 4;

/**
 * Renders a plan to a seamless stereo loop exactly `bars` long. Loops repeat their four-bar
 * phrase, so the phrase is rendered once (with its reverb) and laid down as often as needed;
 * in longer loops the melody plays every other phrase, which keeps them from sounding static.
 * Whatever rings past the loop's end wraps onto its start, as it would when the loop repeats.
 */
export function renderSong(plan: SongPlan, rng: Random, lofi: LofiSpec | null): Float32Array[] {
  const { sampleRate } = plan;
  const phraseSeconds = loopSeconds(plan) * (PHRASE_BARS / plan.bars);
  const phraseLength = samplesFor(phraseSeconds, sampleRate);
  const loopLength = phraseLength * (plan.bars / PHRASE_BARS);
  const ambient = plan.style.drums === null;
  const reverb = { decaySeconds: ambient ? 3 : 1.6, damping: 0.45, size: ambient ? 1.6 : 1 };
  const wet = plan.style.reverbWet * 2.5;

  const bed = emptyBuses(phraseSeconds + TAIL_SECONDS, sampleRate);
  arrangeDrums(plan, rng, bed, PHRASE_BARS);
  arrangeBass(plan, rng, bed, PHRASE_BARS);
  arrangeChords(plan, rng, bed, PHRASE_BARS);
  // A one-phrase loop plays its melody throughout, so it can share the bed's reverb.
  if (plan.lead && plan.bars === PHRASE_BARS) arrangeLead(plan, rng, bed, PHRASE_BARS);
  addReverb(bed.left, bed.right, bed.send, sampleRate, reverb, wet);
  let melody: Buses | null = null;
  if (plan.lead && plan.bars > PHRASE_BARS) {
    melody = emptyBuses(phraseSeconds + TAIL_SECONDS, sampleRate);
    arrangeLead(plan, rng, melody, PHRASE_BARS);
    addReverb(melody.left, melody.right, melody.send, sampleRate, reverb, wet);
  }

  const channels = [new Float32Array(loopLength), new Float32Array(loopLength)];
  const phrases = loopLength / phraseLength;
  for (let phrase = 0; phrase < phrases; phrase++) {
    const offset = phrase * phraseLength;
    addWrapped(channels, [bed.left, bed.right], offset);
    if (melody && phrase % 2 === 1) addWrapped(channels, [melody.left, melody.right], offset);
  }
  // Buses hold raw sums of many notes: bring them to unit peak before anything non-linear.
  const inputGain = 1 / Math.max(...channels.map(peakOf));
  if (lofi) {
    // The lo-fi chain ends in saturation of its own, which also tames the drum peaks.
    applyLofiCharacter(channels, sampleRate, rng, lofi, inputGain);
  } else {
    // Gentle bus saturation: tames drum peaks so the loop's level is set by the music, not the kick.
    for (const channel of channels) saturateInPlace(channel, 1.3, inputGain);
  }
  return channels;
}

/** Adds each source into its channel from `offset`, continuing at the start past the end. */
function addWrapped(channels: Float32Array[], sources: Float32Array[], offset: number): void {
  channels.forEach((channel, c) => {
    const source = sources[c]!;
    const length = channel.length;
    let at = offset % length;
    for (let i = 0; i < source.length; i++) {
      channel[at] = channel[at]! + source[i]!;
      if (++at === length) at = 0;
    }
  });
}
