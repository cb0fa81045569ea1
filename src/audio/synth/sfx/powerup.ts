import { applyAdsr } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { renderTone } from '../dsp/oscillators.ts';
import {
  capitalize,
  cleanTags,
  countWord,
  formatHz,
  formatHzFine,
  formatMs,
  formatSeconds,
  joinWords,
  lengthTags,
  midiNoteName,
  secondsWord,
} from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** Power-ups rise: either a fast climbing arpeggio or a vibrato glide upward. */
const MAJOR_STEPS = [0, 2, 4, 5, 7, 9, 11];

export function generatePowerUp({ rng, sampleRate }: SynthContext): SoundDraft {
  return rng.chance(0.5) ? arpeggioPowerUp({ rng, sampleRate }) : glidePowerUp({ rng, sampleRate });
}

function arpeggioPowerUp({ rng, sampleRate }: SynthContext): SoundDraft {
  const notes = rng.int(5, 12);
  const stepSeconds = rng.range(0.035, 0.07);
  const rootMidi = rng.int(55, 67);
  const skip = rng.pick([1, 2]);
  const waveform = rng.pick(['square', 'triangle'] as const);
  const out = new Float32Array(samplesFor(stepSeconds * notes + 0.15, sampleRate));
  for (let i = 0; i < notes; i++) {
    const degree = i * skip;
    const midi = rootMidi + 12 * Math.floor(degree / 7) + MAJOR_STEPS[degree % 7]!;
    const note = renderTone(samplesFor(stepSeconds * (i === notes - 1 ? 3 : 1.2), sampleRate), sampleRate, {
      waveform,
      startHz: 440 * 2 ** ((midi - 69) / 12),
      pulseWidth: 0.3,
    });
    applyAdsr(note, sampleRate, { attack: 0.002, decay: 0.04, sustain: 0.7, release: 0.02 });
    mixInto(out, note, Math.round(i * stepSeconds * sampleRate), 0.6);
  }
  stateVariableFilter(out, sampleRate, 'lowpass', 0.7, 7000);
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-4, -2),
    leadingSilenceSeconds: rng.range(0, 0.02),
  });
  const noteCount = `${capitalize(countWord(notes))}-Note`;
  return {
    title: 'Power-Up Arpeggio',
    details: [
      joinWords(waveform === 'square' ? 'Retro' : 'Soft', notes > 8 && 'Long', noteCount, 'Climb'),
      `${skip === 2 ? 'Skipping Up' : 'Stepping Up'} from ${midiNoteName(rootMidi)}`,
      `${formatMs(stepSeconds)} Steps`,
    ],
    description:
      `A ${waveform === 'square' ? 'retro 8-bit' : 'soft'} power-up: ${notes} notes climbing a major ` +
      `scale in ${formatSeconds(stepSeconds * notes)}.`,
    tags: cleanTags([
      'power-up',
      'powerup',
      'level-up',
      'bonus',
      'game',
      'rising',
      'arpeggio',
      waveform === 'square' && '8-bit',
      waveform === 'square' && 'retro',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}

function glidePowerUp({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = rng.range(0.4, 1.4);
  const startHz = rng.logRange(180, 400);
  const endHz = startHz * rng.range(3, 6);
  const waveform = rng.pick(['square', 'sine', 'saw'] as const);
  const out = renderTone(samplesFor(seconds, sampleRate), sampleRate, {
    waveform,
    startHz,
    endHz,
    vibratoHz: rng.range(8, 16),
    vibratoSemitones: rng.range(0.4, 1.2),
  });
  applyAdsr(out, sampleRate, { attack: 0.01, decay: 0.2, sustain: 0.8, release: seconds * 0.3 });
  stateVariableFilter(out, sampleRate, 'lowpass', 0.8, 6000);
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-4, -2),
    leadingSilenceSeconds: rng.range(0, 0.02),
  });
  return {
    title: 'Power-Up Rise',
    details: [
      joinWords(waveform === 'sine' ? 'Magic' : waveform === 'square' ? 'Retro' : 'Buzzy Retro', 'Glide'),
      `${formatHzFine(startHz)} to ${formatHzFine(endHz)}`,
      secondsWord(seconds),
    ],
    description:
      `A warbling ${waveform === 'sine' ? 'magical' : 'retro'} tone rising from ${formatHz(startHz)} ` +
      `to ${formatHz(endHz)} over ${formatSeconds(seconds)}.`,
    tags: cleanTags([
      'power-up',
      'powerup',
      'level-up',
      'bonus',
      'game',
      'rising',
      'sweep',
      waveform === 'sine' ? 'magic' : 'retro',
      waveform === 'square' && '8-bit',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
