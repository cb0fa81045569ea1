import { applyAdsr, applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { renderFm, renderTone } from '../dsp/oscillators.ts';
import {
  capitalize,
  cleanTags,
  countWord,
  durationAdjective,
  formatMs,
  formatSeconds,
  joinWords,
  lengthTags,
  midiNoteName,
} from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** Notification sounds: short note sequences whose direction carries the meaning. */

const midiHz = (midi: number): number => 440 * 2 ** ((midi - 69) / 12);

type Kind = 'chime' | 'success' | 'error';

/** Intervals in semitones from the first note: rising major for success, falling for errors. */
const MELODIES: Readonly<Record<Kind, readonly (readonly number[])[]>> = {
  chime: [
    [0, 7],
    [0, 4, 7],
    [7, 0],
    [0, 5, 9],
    [12, 7, 4],
  ],
  success: [
    [0, 4, 7],
    [0, 7],
    [0, 4, 7, 12],
    [0, 5, 9, 12],
  ],
  error: [
    [0, -6],
    [0, -1],
    [3, 0],
    [0, 0],
  ],
};

export function generateNotification({ rng, sampleRate }: SynthContext): SoundDraft {
  const kind = rng.weighted([
    ['chime', 4],
    ['success', 3],
    ['error', 3],
  ] as const);
  const melody = rng.pick(MELODIES[kind]);
  const rootMidi = kind === 'error' ? rng.int(50, 60) : rng.int(67, 81);
  const noteSeconds = rng.range(0.07, 0.16);
  const ringSeconds = kind === 'chime' ? rng.range(0.6, 1.4) : rng.range(0.2, 0.4);
  const out = new Float32Array(samplesFor(noteSeconds * (melody.length - 1) + ringSeconds, sampleRate));
  melody.forEach((interval, step) => {
    const hz = midiHz(rootMidi + interval);
    const length = samplesFor(step === melody.length - 1 ? ringSeconds : noteSeconds * 1.5, sampleRate);
    let note: Float32Array;
    if (kind === 'error') {
      note = renderTone(length, sampleRate, { waveform: 'square', startHz: hz, pulseWidth: 0.35 });
      applyAdsr(note, sampleRate, { attack: 0.005, decay: 0.1, sustain: 0.7, release: 0.04 });
    } else {
      // A bell-ish FM tone: bright strike that mellows as the modulation index falls.
      note = renderFm(length, sampleRate, {
        carrierHz: hz,
        ratio: kind === 'chime' ? 3.5 : 2,
        index: 2.5,
        indexSeconds: 0.15,
      });
      applyPercussive(note, sampleRate, 0.003, length / sampleRate);
    }
    mixInto(out, note, Math.round(step * noteSeconds * sampleRate), 0.8);
  });
  stateVariableFilter(out, sampleRate, 'lowpass', 0.7, kind === 'error' ? 2500 : 9000);
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-5, -2),
    leadingSilenceSeconds: rng.range(0, 0.03),
  });
  const notes = countWord(melody.length);
  const shape =
    melody.length > 1 && melody[melody.length - 1]! > melody[0]!
      ? 'rising'
      : melody[melody.length - 1]! < melody[0]!
        ? 'falling'
        : 'repeated';
  const texts: Record<Kind, { title: string; character: string; description: string; tags: string[] }> = {
    chime: {
      title: 'Notification Chime',
      character: shape === 'rising' ? 'Bright' : 'Gentle',
      description: `A ${shape} ${notes}-note bell chime that rings out for about ${formatSeconds(ringSeconds)}.`,
      tags: ['chime', 'notification', 'bell', 'alert', 'message', 'ui', 'pleasant'],
    },
    success: {
      title: 'Success Jingle',
      character: melody.length > 2 ? 'Bright' : 'Short',
      description: `A cheerful ${shape} ${notes}-note jingle signalling success or completion.`,
      tags: ['success', 'confirm', 'complete', 'positive', 'notification', 'ui', 'jingle', 'achievement'],
    },
    error: {
      title: 'Error Buzz',
      character: 'Low',
      description: `A low buzzy ${shape} ${notes}-note tone signalling an error or a denied action.`,
      tags: ['error', 'wrong', 'fail', 'denied', 'negative', 'buzz', 'notification', 'ui'],
    },
  };
  const text = texts[kind];
  return {
    title: text.title,
    details: [
      joinWords(text.character, capitalize(shape), `${capitalize(notes)}-Note`, kind === 'error' ? 'Tone' : 'Melody'),
      `from ${midiNoteName(rootMidi + melody[0]!)}`,
      `${durationAdjective(ringSeconds)} Ring`,
    ],
    refinements: [`${formatMs(noteSeconds)} Notes`],
    description: text.description,
    tags: cleanTags([...text.tags, shape, ...lengthTags(durationOf(audio))]),
    audio,
  };
}
