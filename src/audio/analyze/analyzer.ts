/**
 * The streaming analyzer: every measurement is fed the same slices in one pass, with memory
 * bounded by small per-slice scratch arrays and per-100 ms / per-1 ms logs, never a copy of
 * the signal. Each meter is written so that any chunking gives bit-identical results.
 */
import type { AudioMeasurements } from '../types.ts';
import { DescriptorMeter } from './descriptors.ts';
import { LoudnessMeter } from './loudness.ts';
import { TimingMeter } from './timing.ts';
import { TruePeakMeter } from './truepeak.ts';
import { WaveformBuilder } from './waveform.ts';

/** Longer pushes are cut into slices of this many frames, so scratch memory and cache use stay small. */
const SLICE_FRAMES = 8192;

export interface AudioAnalyzer {
  /** Feeds the next frames: one array per channel, all of the same length (any length, even 0). */
  push(channels: readonly Float32Array[]): void;
  /** Ends the sound and returns its measurements; the analyzer cannot be used afterwards. */
  finish(): AudioMeasurements;
}

export function createAnalyzer(sampleRate: number, channelCount: number): AudioAnalyzer {
  if (!Number.isFinite(sampleRate) || sampleRate < 1000) throw new RangeError(`unsupported sample rate ${sampleRate}`);
  if (!Number.isInteger(channelCount) || channelCount < 1)
    throw new RangeError(`unsupported channel count ${channelCount}`);
  return new StreamingAnalyzer(sampleRate, channelCount);
}

class StreamingAnalyzer implements AudioAnalyzer {
  private readonly loudness: LoudnessMeter;
  private readonly truePeak: TruePeakMeter;
  private readonly timing: TimingMeter;
  private readonly waveform = new WaveformBuilder();
  private readonly descriptors: DescriptorMeter;
  /** Per frame: sum over channels of x², and max over channels of |x|. */
  private readonly power = new Float64Array(SLICE_FRAMES);
  private readonly level = new Float32Array(SLICE_FRAMES);
  private frames = 0;
  private finished = false;

  constructor(
    private readonly sampleRate: number,
    private readonly channelCount: number,
  ) {
    this.loudness = new LoudnessMeter(sampleRate, channelCount);
    this.truePeak = new TruePeakMeter(sampleRate, channelCount);
    this.timing = new TimingMeter(sampleRate, channelCount);
    this.descriptors = new DescriptorMeter(sampleRate);
  }

  push(channels: readonly Float32Array[]): void {
    if (this.finished) throw new Error('analyzer: push after finish');
    if (channels.length !== this.channelCount) {
      throw new RangeError(`analyzer: expected ${this.channelCount} channels, got ${channels.length}`);
    }
    const frames = channels[0]!.length;
    if (channels.some((channel) => channel.length !== frames))
      throw new RangeError('analyzer: channels differ in length');
    for (let start = 0; start < frames; start += SLICE_FRAMES) {
      const end = Math.min(frames, start + SLICE_FRAMES);
      this.pushSlice(
        channels.map((channel) => channel.subarray(start, end)),
        end - start,
      );
    }
  }

  private pushSlice(slice: Float32Array[], frames: number): void {
    const power = this.power;
    const level = this.level;
    power.fill(0, 0, frames);
    level.fill(0, 0, frames);
    for (const channel of slice) {
      for (let i = 0; i < frames; i++) {
        const x = channel[i]!;
        power[i] = power[i]! + x * x;
        const a = Math.abs(x);
        if (a > level[i]!) level[i] = a;
      }
    }
    this.loudness.push(slice, frames);
    this.truePeak.push(slice, frames);
    this.timing.push(power, level, frames);
    this.waveform.push(slice, frames);
    this.descriptors.push(slice, frames);
    this.frames += frames;
  }

  finish(): AudioMeasurements {
    if (this.finished) throw new Error('analyzer: finish called twice');
    this.finished = true;
    const duration = this.frames / this.sampleRate;
    const timing = this.timing.finish();
    const loudness = {
      integrated_lufs: hundredths(this.loudness.finish()),
      true_peak_db: hundredths(this.truePeak.finish()),
    };
    return {
      duration,
      timing,
      loudness,
      waveform: this.waveform.finish(),
      descriptors: this.descriptors.finish(),
    };
  }
}

/**
 * Loudness and true peak to 0.01 dB: finer than any meter agrees on (EBU Tech 3341 allows 0.1 LU),
 * so more digits would only be noise that people read, store and compare.
 */
export function hundredths(value: number | null): number | null {
  return value === null ? null : Math.round(value * 100) / 100;
}
