import { applyAdsr } from '../dsp/envelopes.ts';
import { stateVariableFilter } from '../dsp/filters.ts';
import { durationOf, finishAudio } from '../dsp/finish.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { renderTone } from '../dsp/oscillators.ts';
import {
  cleanTags,
  formatHz,
  formatHzFine,
  formatMs,
  formatSeconds,
  joinWords,
  lengthTags,
  secondsWord,
} from '../naming.ts';
import type { SoundDraft, SynthContext } from '../sound.ts';

/** Alarms: a wailing siren, a fast beeping alarm, or a two-tone hi-lo. */
export function generateAlarm({ rng, sampleRate }: SynthContext): SoundDraft {
  const kind = rng.pick(['siren', 'beeping', 'two-tone'] as const);
  const seconds = rng.range(1.5, 3.9);
  const length = samplesFor(seconds, sampleRate);
  let out: Float32Array;
  let description: string;
  let title: string;
  let details: string[];
  if (kind === 'siren') {
    // A slow vibrato several semitones deep is what a wailing siren is.
    const hz = rng.range(550, 900);
    const cycleHz = rng.range(0.4, 1.5);
    out = renderTone(length, sampleRate, {
      waveform: 'saw',
      startHz: hz,
      vibratoHz: cycleHz,
      vibratoSemitones: rng.range(4, 7),
      phase: 0,
    });
    stateVariableFilter(out, sampleRate, 'lowpass', 0.8, 3000);
    title = 'Alarm Siren';
    details = [
      joinWords(cycleHz > 1 ? 'Fast' : 'Slow', 'Wail around', formatHzFine(hz)),
      `${Number(cycleHz.toFixed(2))} Cycles a Second`,
    ];
    description =
      `A ${cycleHz > 1 ? 'fast' : 'slowly'} wailing siren swinging around ${formatHz(hz)} for ` +
      `${formatSeconds(seconds)}.`;
  } else if (kind === 'beeping') {
    const hz = rng.range(1500, 3200);
    const beepsPerSecond = rng.range(3, 8);
    out = new Float32Array(length);
    const period = 1 / beepsPerSecond;
    for (let t = 0; t + period / 2 <= seconds; t += period) {
      const beep = renderTone(samplesFor(period / 2, sampleRate), sampleRate, {
        waveform: 'square',
        startHz: hz,
        pulseWidth: 0.5,
      });
      applyAdsr(beep, sampleRate, { attack: 0.002, decay: 0.01, sustain: 1, release: 0.004 });
      mixInto(out, beep, Math.round(t * sampleRate), 0.8);
    }
    stateVariableFilter(out, sampleRate, 'lowpass', 0.7, 6000);
    title = 'Beeping Alarm';
    details = [
      joinWords(beepsPerSecond > 5.5 ? 'Rapid' : 'Steady', 'Beeps at', formatHzFine(hz)),
      `${formatMs(period)} Cycle`,
    ];
    description = `An electronic alarm beeping ${Math.round(beepsPerSecond)} times a second at ${formatHz(hz)}.`;
  } else {
    const lowHz = rng.range(400, 600);
    const highHz = lowHz * rng.range(1.25, 1.5);
    const half = rng.range(0.3, 0.6);
    out = new Float32Array(length);
    for (let t = 0, high = true; t < seconds; t += half, high = !high) {
      const tone = renderTone(samplesFor(Math.min(half, seconds - t), sampleRate), sampleRate, {
        waveform: 'square',
        startHz: high ? highHz : lowHz,
        pulseWidth: 0.5,
      });
      applyAdsr(tone, sampleRate, { attack: 0.005, decay: 0.02, sustain: 1, release: 0.005 });
      mixInto(out, tone, Math.round(t * sampleRate), 0.8);
    }
    stateVariableFilter(out, sampleRate, 'lowpass', 0.7, 3500);
    title = 'Two-Tone Alarm';
    details = [`Hi-Lo ${formatHzFine(highHz)} and ${formatHzFine(lowHz)}`, `${formatMs(half)} Each`];
    description =
      `A two-tone emergency alarm alternating between ${formatHz(highHz)} and ${formatHz(lowHz)} ` +
      `every ${formatSeconds(half)}.`;
  }
  applyAdsr(out, sampleRate, { attack: 0.01, decay: 0.01, sustain: 1, release: 0.05 });
  const audio = finishAudio([out], sampleRate, {
    peakDb: rng.range(-5, -2),
    leadingSilenceSeconds: rng.range(0, 0.03),
  });
  return {
    title,
    details: [...details, secondsWord(seconds)],
    description,
    tags: cleanTags([
      'alarm',
      'warning',
      'alert',
      'emergency',
      kind,
      kind === 'siren' && 'wail',
      kind === 'two-tone' && 'siren',
      kind === 'beeping' && 'beep',
      ...lengthTags(durationOf(audio)),
    ]),
    audio,
  };
}
