/**
 * The test signals of EBU Tech 3341 ("Loudness Metering: 'EBU Mode' metering to supplement EBU
 * R 128 loudness normalization"), made from the document's description of each case instead of
 * read from the EBU's files, so that a clone of the repository tests itself. All are 48 kHz with
 * the same signal in every channel, and rounded to the bit depth the EBU's files use.
 */
import type { PcmAudio } from '../../../src/audio/types.ts';
import { concat, dbToAmplitude, sine, stereo } from './signals.ts';

export const EBU_RATE = 48000;

/** Rounds to the nearest step of signed `bits`-bit PCM, as a file of that depth would hold it. */
export function quantize(signal: Float32Array, bits: number): Float32Array {
  const full = 2 ** (bits - 1);
  return signal.map((x) => Math.max(-full, Math.min(full - 1, Math.round(x * full))) / full);
}

/** Cases 1 to 5: consecutive 1 kHz sections of [dBFS, seconds], 16-bit stereo. */
export function tech3341Tones(sections: Array<[number, number]>): PcmAudio {
  const tone = concat(...sections.map(([db, seconds]) => sine(EBU_RATE, 1000, db, Math.round(seconds * EBU_RATE))));
  return { sampleRate: EBU_RATE, channels: stereo(quantize(tone, 16)) };
}

/** Cases 15 to 19: a steady tone with a stated frequency (a fraction of the rate), phase and level. */
const STEADY_TRUE_PEAK_CASES = {
  15: { period: 4, phaseDegrees: 0, db: -6 },
  16: { period: 4, phaseDegrees: 45, db: -6 },
  17: { period: 6, phaseDegrees: 60, db: -6 },
  18: { period: 8, phaseDegrees: 67.5, db: -6 },
  19: { period: 4, phaseDegrees: 45, db: 3 },
} as const;

/** Cases 20 to 23 hold one waveform, sampled a quarter of a sample later in each. */
const SHIFTED_TRUE_PEAK_CASES = { 20: 0, 21: 1, 22: 2, 23: 3 } as const;

export type TruePeakCase = keyof typeof STEADY_TRUE_PEAK_CASES | keyof typeof SHIFTED_TRUE_PEAK_CASES;
export const TRUE_PEAK_CASES = [15, 16, 17, 18, 19, 20, 21, 22, 23] as const satisfies readonly TruePeakCase[];

const SECONDS = 3.2;
/** The EBU's true-peak files fade in and out linearly over their first and last tenth of a second. */
const RAMP_SECONDS = 0.1;

function ramp(t: number, length: number): number {
  return Math.min(1, t / RAMP_SECONDS, (length - t) / RAMP_SECONDS);
}

/** Cases 15 to 23, 24-bit stereo: each one's true peak is stated by the case, its samples lie lower. */
export function tech3341TruePeak(which: TruePeakCase): PcmAudio {
  const channel =
    which in STEADY_TRUE_PEAK_CASES
      ? steadyTone(which as keyof typeof STEADY_TRUE_PEAK_CASES)
      : toneWithBurst(SHIFTED_TRUE_PEAK_CASES[which as keyof typeof SHIFTED_TRUE_PEAK_CASES]);
  return { sampleRate: EBU_RATE, channels: stereo(quantize(channel, 24)) };
}

function steadyTone(which: keyof typeof STEADY_TRUE_PEAK_CASES): Float32Array {
  const { period, phaseDegrees, db } = STEADY_TRUE_PEAK_CASES[which];
  const amplitude = dbToAmplitude(db);
  const phase = (phaseDegrees * Math.PI) / 180;
  return Float32Array.from(
    { length: SECONDS * EBU_RATE },
    (_, n) => amplitude * ramp(n / EBU_RATE, SECONDS) * Math.sin((2 * Math.PI * n) / period + phase),
  );
}

/**
 * Cases 20 to 23: an fs/6 tone at -6 dBFS that, 1.51 s in (a rising zero crossing), gives way to
 * one period of an fs/4 tone at 0 dBFS and then resumes where it stopped. The joins put energy
 * above the Nyquist frequency, so the waveform is drawn at four times the rate, low-passed just
 * under 24 kHz and kept at every fourth point from `quarter`: a band-limited signal whose peak
 * falls between samples at a different place in each case.
 */
function toneWithBurst(quarter: number): Float32Array {
  const fine = 4 * EBU_RATE;
  const start = 1.51;
  const burst = 1 / (EBU_RATE / 4);
  const length = SECONDS + burst;
  const amplitude = dbToAmplitude(-6);
  const tone = (t: number) => amplitude * Math.sin(2 * Math.PI * (EBU_RATE / 6) * t);
  const waveform = Float32Array.from({ length: Math.round(length * fine) }, (_, i) => {
    const t = i / fine;
    if (t < start) return ramp(t, length) * tone(t);
    if (t < start + burst) return Math.sin(2 * Math.PI * (EBU_RATE / 4) * (t - start));
    return ramp(t, length) * tone(t - burst);
  });
  const taps = lowPass(0.48 / 4, 256);
  const half = (taps.length - 1) / 2;
  const out = new Float32Array(Math.round(length * EBU_RATE));
  for (let n = 0; n < out.length; n++) {
    const centre = 4 * n + quarter;
    let sum = 0;
    for (let k = Math.max(0, centre + half - waveform.length + 1); k < taps.length && k <= centre + half; k++)
      sum += taps[k]! * waveform[centre + half - k]!;
    out[n] = sum;
  }
  return out;
}

/** A Blackman-windowed sinc low-pass of `order` + 1 taps, cut off at `cutoff` cycles per sample, unity gain at 0 Hz. */
function lowPass(cutoff: number, order: number): Float64Array {
  const taps = Float64Array.from({ length: order + 1 }, (_, k) => {
    const x = k - order / 2;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const window = 0.42 - 0.5 * Math.cos((2 * Math.PI * k) / order) + 0.08 * Math.cos((4 * Math.PI * k) / order);
    return sinc * window;
  });
  const sum = taps.reduce((a, b) => a + b, 0);
  return taps.map((tap) => tap / sum);
}
