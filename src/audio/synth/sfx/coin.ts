import { applyAdsr, applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { renderFm, renderTone } from '../dsp/oscillators.ts';
import { cleanTags, durationAdjective, formatHz, formatMs, joinWords, lengthTags, midiNoteName } from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** Pickups: a quick upward arpeggio. Two notes for coins (the classic fourth), three for gems. */
interface PickupKind {
  noun: string;
  words: readonly string[];
  /** Candidate arpeggios, in semitones above the first note. */
  intervals: readonly (readonly number[])[];
}

const KINDS: readonly PickupKind[] = [
  {
    noun: 'Coin',
    words: ['coin', 'money', 'collect'],
    intervals: [
      [0, 5],
      [0, 7],
      [0, 12],
    ],
  },
  {
    noun: 'Pickup',
    words: ['pickup', 'item', 'collect'],
    intervals: [
      [0, 4],
      [0, 7],
      [0, 4, 7],
    ],
  },
  {
    noun: 'Gem',
    words: ['gem', 'jewel', 'sparkle', 'collect'],
    intervals: [
      [0, 4, 7, 12],
      [0, 7, 12],
      [0, 5, 9],
    ],
  },
];

/** What a musician calls each arpeggio (keyed by its intervals). */
const ARPEGGIO_WORDS: Readonly<Record<string, string>> = {
  '0,5': 'Fourth',
  '0,7': 'Fifth',
  '0,12': 'Octave',
  '0,4': 'Major Third',
  '0,4,7': 'Major Triad',
  '0,4,7,12': 'Major Arpeggio',
  '0,7,12': 'Fifth and Octave',
  '0,5,9': 'Fourth and Sixth',
};

const midiHz = (midi: number): number => 440 * 2 ** ((midi - 69) / 12);

export function generateCoin({ rng, sampleRate }: SynthContext): SoundDraft {
  const kind = rng.pick(KINDS);
  const intervals = rng.pick(kind.intervals);
  const retro = kind.noun !== 'Gem' && rng.chance(0.7);
  const rootMidi = rng.int(76, 88);
  const stepSeconds = rng.range(0.05, 0.09);
  const tailSeconds = rng.range(0.15, 0.45);
  const out = new Float32Array(samplesFor(stepSeconds * (intervals.length - 1) + tailSeconds, sampleRate));
  intervals.forEach((interval, step) => {
    const last = step === intervals.length - 1;
    const length = samplesFor(last ? tailSeconds : stepSeconds, sampleRate);
    const hz = midiHz(rootMidi + interval);
    let note: Float32Array;
    if (retro) {
      note = renderTone(length, sampleRate, { waveform: 'square', startHz: hz, pulseWidth: 0.5 });
      applyAdsr(note, sampleRate, {
        attack: 0.001,
        decay: last ? tailSeconds : 0.05,
        sustain: last ? 0 : 0.8,
        release: last ? tailSeconds / 2 : 0.005,
      });
    } else {
      note = renderFm(length, sampleRate, { carrierHz: hz, ratio: 4, index: 1.5, indexSeconds: 0.05 });
      applyPercussive(note, sampleRate, 0.001, last ? tailSeconds : stepSeconds * 3);
    }
    mixInto(out, note, Math.round(step * stepSeconds * sampleRate), 0.7);
  });
  stateVariableFilter(out, sampleRate, 'lowpass', 0.7, retro ? 7000 : 12000);
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-5, -2),
    leadingSilenceSeconds: rng.range(0, 0.03),
  });
  const noteCount = intervals.length === 2 ? 'two-note' : `${intervals.length}-note`;
  return {
    title: joinWords(retro ? 'Retro' : 'Sparkly', kind.noun, 'Pickup' === kind.noun ? 'Chime' : 'Collect'),
    details: [
      `${ARPEGGIO_WORDS[intervals.join(',')] ?? 'Arpeggio'} Up from ${midiNoteName(rootMidi)}`,
      `${formatMs(stepSeconds)} Steps`,
      `${durationAdjective(tailSeconds)} Ring`,
    ],
    description:
      `A ${retro ? '8-bit square-wave' : 'bell-like sparkling'} ${noteCount} upward arpeggio from ` +
      `${formatHz(midiHz(rootMidi))}, like collecting a ${kind.noun.toLowerCase()} in a game.`,
    tags: cleanTags([
      ...kind.words,
      'pickup',
      'game',
      'reward',
      'arpeggio',
      'bonus',
      retro ? '8-bit' : 'bell',
      retro && 'retro',
      retro && 'chiptune',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
