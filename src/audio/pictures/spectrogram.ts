/**
 * A spectrogram's columns from a stream of audio whose length is not known until it ends: one
 * FFT_SIZE Hann-windowed FFT of the mono mix at the end of each of at most 2 × `columns` buckets
 * of equal width. When the buckets fill up, every other one is kept and their width doubles, as
 * in the waveform overview (analyze/waveform.ts): memory is buckets × rows whatever the length,
 * and the FFTs computed grow with the logarithm of the length, not the length.
 *
 * Frequencies run on a logarithmic axis from LOWEST_HZ to the Nyquist frequency, as Freesound
 * draws them; each row keeps the strongest bin under it (or, where rows are narrower than a bin,
 * the power between the two nearest bins). Levels are dB against a full-scale sine.
 */
import { Fft, hann } from '../analyze/fft.ts';

export const FFT_SIZE = 2048;
/** The bottom of the frequency axis: below it a 2048-point FFT at 44.1 kHz has under five bins an octave. */
export const LOWEST_HZ = 40;
/** Samples of the first buckets: short sounds still get a column every this many samples or fewer. */
const FIRST_BUCKET_WIDTH = 128;

export class SpectrogramBuilder {
  private readonly fft = new Fft(FFT_SIZE);
  private readonly window = hann(FFT_SIZE);
  private readonly re = new Float64Array(FFT_SIZE);
  private readonly im = new Float64Array(FFT_SIZE);
  private readonly power = new Float64Array(FFT_SIZE / 2 + 1);
  /** The last FFT_SIZE samples of the mono mix, as a ring. */
  private readonly ring = new Float64Array(FFT_SIZE);
  private written = 0;
  /** Levels in dB, `rows` per bucket. */
  private readonly levels: Float32Array;
  private readonly maxBuckets: number;
  private buckets = 0;
  private bucketWidth = FIRST_BUCKET_WIDTH;
  /** Samples since the last bucket ended. */
  private fill = 0;
  private readonly rowBins: Array<{ from: number; to: number; at: number }>;
  /** The power of a full-scale sine's bin: 0 dB. */
  private readonly reference: number;

  constructor(
    sampleRate: number,
    private readonly columns: number,
    private readonly rows: number,
  ) {
    this.maxBuckets = 2 * columns;
    this.levels = new Float32Array(this.maxBuckets * rows);
    const windowSum = this.window.reduce((sum, w) => sum + w, 0);
    this.reference = (windowSum / 2) ** 2;
    this.rowBins = rowBinsOf(sampleRate, rows);
  }

  push(channels: readonly Float32Array[], frames: number): void {
    const scale = 1 / channels.length;
    for (let i = 0; i < frames; i++) {
      let sum = 0;
      for (const channel of channels) sum += channel[i]!;
      this.ring[this.written++ % FFT_SIZE] = sum * scale;
      if (++this.fill === this.bucketWidth) this.endBucket();
    }
  }

  /** `columns` × `rows` levels in dB, column by column, lowest frequency first; -Infinity is silence. */
  finish(): Float32Array {
    if (this.fill > 0) this.endBucket();
    const out = new Float32Array(this.columns * this.rows).fill(-Infinity);
    const count = this.buckets;
    if (count === 0) return out;
    for (let c = 0; c < this.columns; c++) {
      const start = Math.floor((c * count) / this.columns);
      const end = Math.max(start + 1, Math.floor(((c + 1) * count) / this.columns));
      for (let b = start; b < end; b++) {
        for (let r = 0; r < this.rows; r++) {
          const level = this.levels[b * this.rows + r]!;
          if (level > out[c * this.rows + r]!) out[c * this.rows + r] = level;
        }
      }
    }
    return out;
  }

  private endBucket(): void {
    this.fill = 0;
    if (this.buckets === this.maxBuckets) {
      // Bucket 2j + 1 ends where the doubled bucket j does.
      for (let j = 0; j < this.maxBuckets / 2; j++) {
        this.levels.copyWithin(j * this.rows, (2 * j + 1) * this.rows, (2 * j + 2) * this.rows);
      }
      this.buckets = this.maxBuckets / 2;
      this.bucketWidth *= 2;
      // The bucket just ended is half of a doubled one: its second half is still to come.
      this.fill = this.bucketWidth / 2;
      return;
    }
    this.analyze(this.buckets++);
  }

  private analyze(bucket: number): void {
    const { re, im, power, window } = this;
    // The last FFT_SIZE samples, oldest first; zeros before the sound began.
    const start = this.written - FFT_SIZE;
    for (let i = 0; i < FFT_SIZE; i++) {
      const at = start + i;
      re[i] = at < 0 ? 0 : this.ring[at % FFT_SIZE]! * window[i]!;
      im[i] = 0;
    }
    this.fft.transform(re, im);
    for (let k = 0; k < power.length; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
    const offset = bucket * this.rows;
    for (let r = 0; r < this.rows; r++) {
      const { from, to, at } = this.rowBins[r]!;
      let strongest = 0;
      if (from <= to) for (let k = from; k <= to; k++) strongest = Math.max(strongest, power[k]!);
      else {
        const low = Math.floor(at);
        strongest = power[low]! + (power[low + 1]! - power[low]!) * (at - low);
      }
      this.levels[offset + r] = strongest > 0 ? 10 * Math.log10(strongest / this.reference) : -Infinity;
    }
  }
}

/** Each row's bins: those whose frequency falls in the row's band, or the fractional bin at its centre. */
function rowBinsOf(sampleRate: number, rows: number): Array<{ from: number; to: number; at: number }> {
  const nyquist = sampleRate / 2;
  const hzPerBin = sampleRate / FFT_SIZE;
  const lowest = Math.min(LOWEST_HZ, nyquist / 2);
  const ratio = nyquist / lowest;
  const hzAt = (edge: number) => lowest * ratio ** (edge / rows);
  return Array.from({ length: rows }, (_, r) => {
    const from = Math.ceil(hzAt(r) / hzPerBin);
    const to = r + 1 < rows ? Math.ceil(hzAt(r + 1) / hzPerBin) - 1 : FFT_SIZE / 2;
    const at = Math.min(FFT_SIZE / 2 - 1, Math.sqrt(hzAt(r) * hzAt(r + 1)) / hzPerBin);
    return { from, to, at };
  });
}
