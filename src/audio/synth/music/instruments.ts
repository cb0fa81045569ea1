import { applyAdsr, applyFades, applyPercussive } from '../dsp/envelopes.ts';
import { onePoleLowpass } from '../dsp/filters.ts';
import { mixInto, samplesFor, saturateInPlace, scaleInPlace } from '../dsp/mix.ts';
import { renderFm, renderTone } from '../dsp/oscillators.ts';
import { renderPluck } from '../dsp/pluck.ts';
import type { Random } from '../random.ts';
import type { BassVoice, ChordVoice, LeadVoice } from './styles.ts';

/**
 * Note renderers. Each returns a fresh buffer holding the note for `seconds` plus its release,
 * at unit-ish level; the arrangement sets the mix level and position.
 */
export type Voice = ChordVoice | BassVoice | LeadVoice;

const RELEASE: Readonly<Record<Voice, number>> = {
  pad: 0.5,
  ep: 0.25,
  stab: 0.05,
  pluck: 0.1,
  arp: 0.02,
  sub: 0.06,
  saw: 0.05,
  triangle: 0.03,
  upright: 0.08,
  square: 0.03,
  bell: 0.3,
};

/** Evens out the voices' loudness (to about -10 dB RMS), so arrangements set levels, not timbres. */
const VOICE_GAIN: Readonly<Record<Voice, number>> = {
  pad: 0.75,
  ep: 1,
  stab: 2.4,
  pluck: 3,
  arp: 0.7,
  sub: 0.56,
  saw: 1,
  triangle: 0.7,
  upright: 5,
  square: 0.5,
  bell: 1.1,
};

export function renderNote(voice: Voice, hz: number, seconds: number, sampleRate: number, rng: Random): Float32Array {
  const release = RELEASE[voice];
  const length = samplesFor(seconds + release, sampleRate);
  let note: Float32Array;
  switch (voice) {
    case 'pad': {
      // Two detuned saws beating slowly are what makes a pad sound wide and warm.
      note = renderTone(length, sampleRate, { waveform: 'saw', startHz: hz * 1.004, phase: rng.next() });
      mixInto(note, renderTone(length, sampleRate, { waveform: 'saw', startHz: hz * 0.996, phase: rng.next() }), 0);
      onePoleLowpass(note, sampleRate, 1400);
      onePoleLowpass(note, sampleRate, 2400);
      applyAdsr(note, sampleRate, { attack: Math.min(0.35, seconds / 3), decay: 0.5, sustain: 0.8, release });
      break;
    }
    case 'ep':
      note = renderFm(length, sampleRate, { carrierHz: hz, ratio: 1, index: 2, endIndex: 0.3, indexSeconds: 0.3 });
      applyPercussive(note, sampleRate, 0.003, 3);
      break;
    case 'stab':
      note = renderTone(length, sampleRate, { waveform: 'saw', startHz: hz, phase: rng.next() });
      onePoleLowpass(note, sampleRate, 2000);
      applyPercussive(note, sampleRate, 0.002, Math.min(0.4, seconds * 2));
      break;
    case 'pluck':
      note = renderPluck(length, sampleRate, hz, rng, 0.6, 1.5);
      break;
    case 'upright':
      note = renderPluck(length, sampleRate, hz, rng, 0.3, 1.2);
      onePoleLowpass(note, sampleRate, 900);
      break;
    case 'arp':
    case 'square':
      note = renderTone(length, sampleRate, {
        waveform: 'square',
        startHz: hz,
        pulseWidth: voice === 'arp' ? 0.25 : 0.5,
        vibratoHz: voice === 'square' ? 5.5 : 0,
        vibratoSemitones: 0.15,
      });
      onePoleLowpass(note, sampleRate, 5000);
      applyAdsr(note, sampleRate, { attack: 0.003, decay: 0.1, sustain: voice === 'arp' ? 0.5 : 0.75, release });
      break;
    case 'saw':
      note = renderTone(length, sampleRate, { waveform: 'saw', startHz: hz, vibratoHz: 5, vibratoSemitones: 0.1 });
      onePoleLowpass(note, sampleRate, hz < 200 ? 600 : 3000);
      applyAdsr(note, sampleRate, { attack: 0.005, decay: 0.15, sustain: 0.6, release });
      break;
    case 'triangle':
      note = renderTone(length, sampleRate, {
        waveform: 'triangle',
        startHz: hz,
        vibratoHz: 5,
        vibratoSemitones: hz > 200 ? 0.12 : 0,
      });
      applyAdsr(note, sampleRate, { attack: 0.004, decay: 0.1, sustain: 0.8, release });
      break;
    case 'sub':
      note = renderTone(length, sampleRate, { waveform: 'sine', startHz: hz });
      saturateInPlace(note, 1.8); // a touch of harmonics so the bass is heard on small speakers
      applyAdsr(note, sampleRate, { attack: 0.008, decay: 0.3, sustain: 0.7, release });
      break;
    case 'bell':
      note = renderFm(length, sampleRate, { carrierHz: hz, ratio: 3.5, index: 1.6, indexSeconds: 0.2 });
      applyPercussive(note, sampleRate, 0.002, 1.6);
      break;
  }
  // Percussive voices cut at the end of their note still need to end without a click.
  applyFades(note, 0, samplesFor(Math.min(release, 0.02) + 0.005, sampleRate));
  scaleInPlace(note, VOICE_GAIN[voice]);
  return note;
}
