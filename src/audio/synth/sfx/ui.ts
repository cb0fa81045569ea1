import { applyAdsr, applyPercussive } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { whiteNoise } from '../dsp/noise.ts';
import { renderTone, type Waveform } from '../dsp/oscillators.ts';
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
} from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** Interface sounds: clicks, beeps and blips. Short, clean, and quiet at the edges. */

export function generateClick({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = rng.range(0.05, 0.14);
  const toneHz = rng.logRange(1200, 5000);
  const soft = rng.chance(0.5);
  const out = whiteNoise(samplesFor(seconds, sampleRate), rng);
  stateVariableFilter(out, sampleRate, 'bandpass', rng.range(1.5, 4), toneHz);
  mixInto(out, renderTone(out.length, sampleRate, { waveform: 'sine', startHz: toneHz * 0.7 }), 0, 0.4);
  applyPercussive(out, sampleRate, 0.0005, soft ? rng.range(0.02, 0.05) : rng.range(0.006, 0.02));
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-6, -2),
    fadeOutSeconds: 0.005,
    leadingSilenceSeconds: rng.range(0, 0.03),
  });
  const feel = soft ? 'soft' : 'crisp';
  return {
    title: 'UI Click',
    details: [
      joinWords(capitalize(feel), toneHz > 3000 ? 'Bright' : 'Muted', 'Tick'),
      `near ${formatHzFine(toneHz)}`,
      formatMs(seconds),
    ],
    description: `A ${feel} interface click, a tiny tick of noise centred near ${formatHz(toneHz)}.`,
    tags: cleanTags(['ui', 'click', 'interface', 'button', 'tap', 'menu', feel, ...lengthTags(durationOf(audio))]),
    audio,
  };
}

const BEEP_WAVES: readonly { waveform: Waveform; word: string }[] = [
  { waveform: 'sine', word: 'pure' },
  { waveform: 'triangle', word: 'soft' },
  { waveform: 'square', word: 'electronic' },
];

export function generateBeep({ rng, sampleRate }: SynthContext): SoundDraft {
  const wave = rng.pick(BEEP_WAVES);
  const hz = rng.logRange(440, 2000);
  const beeps = rng.weighted([
    [1, 5],
    [2, 3],
    [3, 1],
  ] as const);
  const beepSeconds = rng.range(0.06, beeps === 1 ? 0.5 : 0.15);
  const gapSeconds = beepSeconds + rng.range(0.04, 0.12);
  const out = new Float32Array(samplesFor(gapSeconds * (beeps - 1) + beepSeconds, sampleRate));
  for (let i = 0; i < beeps; i++) {
    const tone = renderTone(samplesFor(beepSeconds, sampleRate), sampleRate, { waveform: wave.waveform, startHz: hz });
    applyAdsr(tone, sampleRate, { attack: 0.004, decay: 0.05, sustain: 0.8, release: Math.min(0.03, beepSeconds / 3) });
    mixInto(out, tone, Math.round(i * gapSeconds * sampleRate));
  }
  if (wave.waveform === 'square') stateVariableFilter(out, sampleRate, 'lowpass', 0.7, 5000);
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-6, -2),
    leadingSilenceSeconds: rng.range(0, 0.03),
  });
  const count = beeps === 1 ? '' : beeps === 2 ? 'Double' : 'Triple';
  const pitch = hz > 1200 ? 'high' : hz < 700 ? 'low' : 'mid';
  return {
    title: joinWords(count, 'Beep'),
    details: [
      joinWords(capitalize(wave.word), capitalize(pitch), beeps > 1 ? 'Tones' : 'Tone'),
      formatHzFine(hz),
      `${formatMs(beepSeconds)}${beeps > 1 ? ' Each' : ' Long'}`,
    ],
    refinements: beeps > 1 ? [`${formatMs(gapSeconds - beepSeconds)} Apart`] : [],
    description:
      beeps === 1
        ? `A ${wave.word} ${pitch}-pitched beep at ${formatHz(hz)}, ${formatSeconds(beepSeconds)} long.`
        : `${capitalize(countWord(beeps))} ${wave.word} ${pitch}-pitched beeps at ${formatHz(hz)}, ` +
          `${formatSeconds(beepSeconds)} each.`,
    tags: cleanTags([
      'beep',
      'ui',
      'tone',
      'interface',
      'electronic',
      wave.word,
      pitch,
      beeps > 1 && count,
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}

export function generateBlip({ rng, sampleRate }: SynthContext): SoundDraft {
  const seconds = rng.range(0.05, 0.2);
  const rising = rng.chance(0.6);
  const baseHz = rng.logRange(300, 1200);
  const ratio = rng.range(1.5, 3);
  const waveform = rng.pick(['square', 'triangle', 'sine'] as const);
  const out = renderTone(samplesFor(seconds, sampleRate), sampleRate, {
    waveform,
    startHz: rising ? baseHz : baseHz * ratio,
    endHz: rising ? baseHz * ratio : baseHz,
    pulseWidth: 0.25,
  });
  applyAdsr(out, sampleRate, { attack: 0.002, decay: seconds / 2, sustain: 0.5, release: seconds / 3 });
  if (waveform === 'square') stateVariableFilter(out, sampleRate, 'lowpass', 0.7, 6000);
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-5, -2),
    leadingSilenceSeconds: rng.range(0, 0.03),
  });
  const direction = rising ? 'up' : 'down';
  return {
    title: joinWords('Blip', rising ? 'Up' : 'Down'),
    details: [
      joinWords(waveform === 'square' ? 'Retro' : waveform === 'sine' ? 'Pure' : 'Soft', 'Glide'),
      `${formatHzFine(rising ? baseHz : baseHz * ratio)} to ${formatHzFine(rising ? baseHz * ratio : baseHz)}`,
      formatMs(seconds),
    ],
    description:
      `A quick ${waveform === 'square' ? 'retro 8-bit' : 'soft'} blip gliding ${direction} from ` +
      `${formatHz(rising ? baseHz : baseHz * ratio)} to ${formatHz(rising ? baseHz * ratio : baseHz)}.`,
    tags: cleanTags([
      'blip',
      'ui',
      'game',
      'interface',
      waveform === 'square' ? '8-bit' : 'soft',
      waveform === 'square' && 'retro',
      rising ? 'rising' : 'falling',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
