import type { PcmAudio } from '../types.ts';
import { ChannelPlan } from './channel-plan.ts';
import { FrameLog } from './frame-log.ts';
import { buildInfoTagFrame, tagBitrate, tagFrameBytes } from './info-tag.ts';
import { createLameEncoder, type LameEncoder } from './lame.ts';
import { LAME_ENCODER_DELAY, type Mp3EncodeOptions, type Mp3Mode, mp3Mode, mp3SampleRate } from './mp3-options.ts';

export interface Mp3InputFormat {
  sampleRate: number;
  channelCount: number;
}

/** LAME's input is copied into WASM memory per call; this bounds that copy. */
const MAX_SAMPLES_PER_CALL = 1152 * 32;

/**
 * LAME plus everything around it: channel plan in, frames out, and at the end the Info tag frame
 * that must go in front of those frames. Knows nothing about where the bytes go.
 */
export class Mp3StreamEncoder {
  readonly plan: ChannelPlan;
  readonly tagBytes: number;
  private readonly mode: Mp3Mode;
  private readonly log = new FrameLog();
  private samplesEncoded = 0;
  private finished = false;

  private constructor(
    private readonly lame: LameEncoder,
    readonly input: Mp3InputFormat,
    options: Mp3EncodeOptions,
  ) {
    this.mode = mp3Mode(options);
    this.plan = new ChannelPlan(input.channelCount, input.sampleRate, mp3SampleRate(input.sampleRate));
    const rate = this.plan.outputRate;
    const version = rate >= 32000 ? 1 : rate >= 16000 ? 2 : 2.5;
    const kbps = tagBitrate(
      version,
      rate,
      this.plan.outputChannelCount,
      this.mode.kind === 'cbr' ? this.mode.bitrate : undefined,
    );
    this.tagBytes = tagFrameBytes(version, rate, kbps);
    // The casts narrow to the package's literal unions; mp3SampleRate and mp3Mode only return members.
    lame.configure({
      sampleRate: rate,
      channels: this.plan.outputChannelCount,
      // Without this LAME picks its own output rate for low bitrates and resamples silently
      // (64 kbit/s stereo at 44.1 kHz came out at 24 kHz), which would also change its delay.
      outputSampleRate: rate as 44100,
      ...(this.mode.kind === 'cbr' ? { bitrate: this.mode.bitrate as 128 } : { vbrQuality: this.mode.quality }),
    });
  }

  static async create(input: Mp3InputFormat, options: Mp3EncodeOptions = {}): Promise<Mp3StreamEncoder> {
    if (!Number.isInteger(input.channelCount) || input.channelCount < 1) {
      throw new RangeError(`cannot encode ${input.channelCount} channels`);
    }
    if (!Number.isFinite(input.sampleRate) || input.sampleRate < 1 || !Number.isInteger(input.sampleRate)) {
      throw new RangeError(`cannot encode at a sample rate of ${input.sampleRate} Hz`);
    }
    mp3Mode(options); // reject bad options before paying for a LAME instance
    return new Mp3StreamEncoder(await createLameEncoder(), input, options);
  }

  /** Encodes the next chunk; returns the MP3 bytes it completed (copies, owned by the caller). */
  encode(chunk: PcmAudio): Uint8Array[] {
    this.check(chunk);
    return this.feed(this.plan.convert(chunk));
  }

  /** Ends the stream: the last frames, and the tag frame that must replace the first `tagBytes` bytes. */
  finish(): { frames: Uint8Array[]; tag: Uint8Array } {
    if (this.finished) throw new Error('MP3 encoder already finished');
    this.finished = true;
    const frames = this.feed(this.plan.flush());
    frames.push(this.keep(this.lame.finalize()));
    return { frames, tag: this.tagFrame() };
  }

  private feed(channels: Float32Array[]): Uint8Array[] {
    const out: Uint8Array[] = [];
    const length = channels[0]?.length ?? 0;
    for (let from = 0; from < length; from += MAX_SAMPLES_PER_CALL) {
      const part = channels.map((c) => c.subarray(from, from + MAX_SAMPLES_PER_CALL));
      out.push(this.keep(this.lame.encode(part)));
    }
    this.samplesEncoded += length;
    return out.filter((bytes) => bytes.length > 0);
  }

  /** LAME's output lives in its WASM memory and is overwritten by the next call: copy it out. */
  private keep(view: Uint8Array): Uint8Array {
    const bytes = view.slice();
    this.log.add(bytes);
    return bytes;
  }

  private tagFrame(): Uint8Array {
    const { log } = this;
    if (!log.first || !log.firstHeaderBytes) throw new Error('MP3 encoder produced no frames');
    const padding = log.frameCount * log.first.samplesPerFrame - LAME_ENCODER_DELAY - this.samplesEncoded;
    if (padding < 0 || padding > 0xfff) throw new Error(`unexpected MP3 encoder padding ${padding}`);
    const tag = buildInfoTagFrame({
      audioHeader: log.firstHeaderBytes,
      tagBitrateKbps: this.tagBitrateKbps(),
      vbr: this.mode.kind === 'vbr' ? { quality: this.mode.quality } : null,
      frameCount: log.frameCount,
      audioBytes: log.byteCount,
      toc: log.seekTable(),
      delay: LAME_ENCODER_DELAY,
      padding,
      minBitrateKbps: log.minBitrateKbps,
      sourceSampleRate: this.input.sampleRate,
      musicCrc: log.musicCrc,
    });
    if (tag.length !== this.tagBytes) throw new Error('Info tag frame size changed');
    return tag;
  }

  private tagBitrateKbps(): number {
    const first = this.log.first!;
    return tagBitrate(
      first.version,
      first.sampleRate,
      first.channelCount,
      this.mode.kind === 'cbr' ? this.mode.bitrate : undefined,
    );
  }

  private check(chunk: PcmAudio): void {
    if (this.finished) throw new Error('MP3 encoder already finished');
    if (chunk.sampleRate !== this.input.sampleRate || chunk.channels.length !== this.input.channelCount) {
      throw new RangeError(
        `chunk is ${chunk.channels.length} ch at ${chunk.sampleRate} Hz; the encoder was opened for ` +
          `${this.input.channelCount} ch at ${this.input.sampleRate} Hz`,
      );
    }
    const length = chunk.channels[0]?.length ?? 0;
    if (chunk.channels.some((c) => c.length !== length)) throw new RangeError('chunk channels differ in length');
  }
}
