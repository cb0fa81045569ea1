/**
 * Varied programme-like signals for comparing with ffmpeg: noise, sweeps, notes, drums, speech-
 * like bursts, extremes of level and frequency, short clips, mono to 5.1, 44.1 / 48 / 96 kHz.
 *
 * Tones and sweeps get 5 ms fades, as recorded sounds have: a full-scale high tone cut off
 * abruptly rings when band-limited, and there ffmpeg's meter (192 kHz resampling with a
 * mirrored start and no flush at the end) and BS.1770's 4x oversampling legitimately differ
 * by up to half a dB. analyze/truepeak.test.ts checks such edges against the ideal peak instead.
 */
import type { PcmAudio } from '../../../src/audio/types.ts';
import {
  chirp,
  concat,
  dbToAmplitude,
  fadeEdges,
  mixInto,
  noise,
  note,
  seededRandom,
  silence,
  sine,
  stereo,
} from './signals.ts';

export interface NamedSignal {
  name: string;
  audio: PcmAudio;
}

const seconds = (rate: number, s: number) => Math.round(rate * s);
const faded = (rate: number, signal: Float32Array) => fadeEdges(signal, seconds(rate, 0.005));

function noiseBursts(rate: number, seed: number): Float32Array {
  const out = silence(seconds(rate, 6));
  const random = seededRandom(seed);
  for (let t = 0.2; t < 5.5; t += 0.3 + random() * 0.5) {
    mixInto(
      out,
      fadeEdges(noise(seed + t * 1000, -12 - random() * 20, seconds(rate, 0.1 + random() * 0.4)), 200),
      seconds(rate, t),
    );
  }
  return out;
}

function pianoLike(rate: number, seed: number): Float32Array {
  const out = silence(seconds(rate, 8));
  const random = seededRandom(seed);
  for (let t = 0; t < 7; t += 0.25 + random() * 0.5) {
    const hz = 110 * 2 ** (Math.floor(random() * 36) / 12);
    mixInto(out, note(rate, hz, -14 - random() * 10, 0.5 + random() * 1.5), seconds(rate, t));
  }
  return out;
}

function drums(rate: number, seed: number): Float32Array {
  const out = silence(seconds(rate, 6));
  for (let beat = 0; beat < 12; beat++) {
    const at = seconds(rate, beat * 0.5);
    const hit = noise(seed + beat, -10, seconds(rate, 0.25));
    for (let i = 0; i < hit.length; i++) hit[i] = hit[i]! * Math.exp((-30 * i) / rate);
    mixInto(out, hit, at);
    if (beat % 2 === 0) {
      const kick = chirp(rate, 150, 45, -4, 0.3);
      for (let i = 0; i < kick.length; i++) kick[i] = kick[i]! * Math.exp((-12 * i) / rate);
      mixInto(out, kick, at);
    }
  }
  return out;
}

function speechLike(rate: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const parts: Float32Array[] = [];
  for (let word = 0; word < 12; word++) {
    const length = seconds(rate, 0.15 + random() * 0.35);
    const voiced = noise(seed + word, -18, length, 0.8);
    const pitch = 100 + random() * 120;
    for (let i = 0; i < length; i++) voiced[i] = voiced[i]! * (0.6 + 0.4 * Math.sin((2 * Math.PI * pitch * i) / rate));
    parts.push(fadeEdges(voiced, seconds(rate, 0.02)), silence(seconds(rate, 0.05 + random() * 0.3)));
  }
  return concat(...parts);
}

function sections(rate: number): Float32Array {
  return concat(
    noise(11, -14, seconds(rate, 2), 0.5),
    noise(12, -40, seconds(rate, 2), 0.5),
    noise(13, -20, seconds(rate, 2), 0.5),
    noise(14, -75, seconds(rate, 2)),
  );
}

function clicks(rate: number): Float32Array {
  const out = noise(21, -60, seconds(rate, 4));
  for (let i = 0; i < 40; i++) out[seconds(rate, 0.1 * i) + 7] = i % 2 ? 0.8 : -0.6;
  return out;
}

function padFades(rate: number): Float32Array {
  const pad = silence(seconds(rate, 8));
  for (const hz of [220, 277.2, 329.6, 440]) mixInto(pad, sine(rate, hz, -20, pad.length), 0);
  for (let i = 0; i < pad.length; i++) pad[i] = pad[i]! * Math.sin((Math.PI * i) / pad.length) ** 2;
  return pad;
}

function withGain(signal: Float32Array, db: number): Float32Array {
  const gain = dbToAmplitude(db);
  return signal.map((x) => x * gain);
}

function amplitudeModulated(signal: Float32Array, rate: number, hz: number): Float32Array {
  return signal.map((x, i) => x * (0.55 + 0.45 * Math.sin((2 * Math.PI * hz * i) / rate)));
}

export function variedSignals(): NamedSignal[] {
  const at48 = (name: string, channels: Float32Array[]) => ({ name, audio: { sampleRate: 48000, channels } });
  const at44 = (name: string, channels: Float32Array[]) => ({ name, audio: { sampleRate: 44100, channels } });
  const six = seconds(48000, 6);
  return [
    at48('white noise bursts, stereo 48 kHz', [noiseBursts(48000, 1), noiseBursts(48000, 2)]),
    at44('pink-ish noise, stereo 44.1 kHz', [
      noise(3, -20, seconds(44100, 5), 0.9),
      noise(4, -20, seconds(44100, 5), 0.9),
    ]),
    at48('log sweep 20 Hz to 20 kHz, mono 48 kHz', [faded(48000, chirp(48000, 20, 20000, -10, 6))]),
    at44('log sweep 50 Hz to 15 kHz, stereo 44.1 kHz', stereo(faded(44100, chirp(44100, 50, 15000, -6, 5)))),
    at48('piano-like notes, stereo 48 kHz', [pianoLike(48000, 5), pianoLike(48000, 6)]),
    at44('piano-like notes, mono 44.1 kHz', [pianoLike(44100, 7)]),
    at44('drum-like hits and kicks, stereo 44.1 kHz', stereo(drums(44100, 8))),
    at48('speech-like bursts with pauses, mono 48 kHz', [speechLike(48000, 9)]),
    at48('loud broadband near 0 dBFS, stereo 48 kHz', [
      noise(10, -6, six, 0.3).map((x) => Math.max(-1, Math.min(1, x))),
      noise(15, -7, six, 0.3).map((x) => Math.max(-1, Math.min(1, x))),
    ]),
    at48('quiet programme around -55 LUFS, stereo 48 kHz', stereo(withGain(pianoLike(48000, 16), -35))),
    at48('loud and quiet sections (gating), stereo 48 kHz', [sections(48000), sections(48000).reverse()]),
    at48('30 Hz rumble and 50 Hz hum, mono 48 kHz', [
      concat(sine(48000, 30, -10, seconds(48000, 3)), sine(48000, 50, -16, seconds(48000, 3))),
    ]),
    at44('high tones 8 to 16 kHz, stereo 44.1 kHz', [
      faded(44100, chirp(44100, 8000, 16000, -8, 4)),
      faded(44100, sine(44100, 12345, -12, seconds(44100, 4))),
    ]),
    at48('click train over faint noise, mono 48 kHz', [clicks(48000)]),
    at48('left channel only, 48 kHz', [pianoLike(48000, 17), silence(seconds(48000, 8))]),
    at44('pad fading in and out, stereo 44.1 kHz', stereo(padFades(44100))),
    at48(
      '5.1 mix with LFE, 48 kHz',
      [
        pianoLike(48000, 18),
        pianoLike(48000, 19),
        speechLike(48000, 20).subarray(0, seconds(48000, 8)),
        sine(48000, 45, -10, seconds(48000, 8)),
        noise(22, -30, seconds(48000, 8), 0.7),
        noise(23, -32, seconds(48000, 8), 0.7),
      ].map((c) => fitLength(c, seconds(48000, 8))),
    ),
    at48('5.0 sweep and noise, 48 kHz', [
      faded(48000, chirp(48000, 100, 8000, -18, 5)),
      faded(48000, chirp(48000, 120, 9000, -18, 5)),
      sine(48000, 1000, -24, seconds(48000, 5)),
      noise(24, -30, seconds(48000, 5)),
      noise(25, -30, seconds(48000, 5)),
    ]),
    {
      name: 'noise and tones, mono 96 kHz',
      audio: {
        sampleRate: 96000,
        channels: [mixInto(noise(26, -26, seconds(96000, 4), 0.6), sine(96000, 3000, -12, seconds(96000, 4)), 0)],
      },
    },
    at48('uncorrelated noise with tremolo, stereo 48 kHz', [
      amplitudeModulated(noise(27, -18, six), 48000, 3),
      amplitudeModulated(noise(28, -18, six), 48000, 5),
    ]),
    at48(
      'inter-sample peaks: fs/4 at 45 degrees, 48 kHz',
      stereo(fadeEdges(sine(48000, 12000, -1, seconds(48000, 3), Math.PI / 4), 2400)),
    ),
    at48('short clip: 150 ms noise burst, stereo 48 kHz', [
      noise(29, -15, seconds(48000, 0.15)),
      noise(30, -15, seconds(48000, 0.15)),
    ]),
    at44('short clip: 300 ms tone, mono 44.1 kHz', [sine(44100, 660, -9, seconds(44100, 0.3))]),
    at44(
      'short clip: 50 ms noise burst, stereo 44.1 kHz',
      stereo(faded(44100, noise(31, -14, seconds(44100, 0.05), 0.5))),
    ),
  ];
}

function fitLength(channel: Float32Array, frames: number): Float32Array {
  const out = new Float32Array(frames);
  out.set(channel.subarray(0, frames));
  return out;
}
