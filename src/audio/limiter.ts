import type { PcmAudio } from './types.ts';

const LOOKAHEAD_S = 0.005;
const RELEASE_S = 0.02;

/**
 * A look-ahead limiter fed chunk by chunk: the gain needed to keep each frame under the ceiling
 * is taken as the minimum over the next LOOKAHEAD_S, smoothed over the same span (so the gain is
 * already down when a peak arrives, without a click), and recovers over RELEASE_S. Audio under
 * the ceiling passes unchanged.
 *
 * Looking ahead delays the output by one span less a frame: each `push` returns the frames it
 * could complete, and `flush` the rest at the end. Memory is a few rings of one span each,
 * whatever the length of the sound; any chunking gives the same samples.
 */
export class LookAheadLimiter {
  private readonly ceiling: number;
  private readonly span: number;
  private readonly release: number;
  /** Rings of `size` frames (span + 1): input not yet output, the gain each frame needs, the look-ahead minimum of output frames. */
  private readonly size: number;
  private readonly pending: Float32Array[];
  private readonly needed: Float64Array;
  private readonly ahead: Float64Array;
  /** Frame numbers whose needed gain may still be a window's minimum, increasing in needed gain (a monotonic queue). */
  private readonly queue: Float64Array;
  private head = 0;
  private tail = 0;
  private received = 0;
  private emitted = 0;
  /** The sum of `ahead` over the last `span` output frames, counting 1 for each frame before the start. */
  private sum: number;
  private gain = 1;

  constructor(
    private readonly sampleRate: number,
    channelCount: number,
    ceilingDb: number,
  ) {
    this.ceiling = 10 ** (ceilingDb / 20);
    this.span = Math.max(1, Math.round(LOOKAHEAD_S * sampleRate));
    this.release = Math.exp(-1 / (RELEASE_S * sampleRate));
    this.size = this.span + 1;
    this.pending = Array.from({ length: channelCount }, () => new Float32Array(this.size));
    this.needed = new Float64Array(this.size);
    this.ahead = new Float64Array(this.size);
    this.queue = new Float64Array(this.size);
    this.sum = this.span;
  }

  /** Takes the next frames and returns those now limited (fewer than given while the look-ahead fills). */
  push(chunk: PcmAudio): PcmAudio {
    const { channels } = chunk;
    const length = channels[0]?.length ?? 0;
    const output = this.pending.map(() => new Float32Array(length));
    let written = 0;
    for (let i = 0; i < length; i++) {
      this.take(channels, i);
      if (this.received - this.emitted >= this.span) this.emit(output, written++);
    }
    return this.slice(output, written);
  }

  /** The frames still held for the look-ahead, limited with the window cut at the end of the sound. */
  flush(): PcmAudio {
    const output = this.pending.map(() => new Float32Array(this.received - this.emitted));
    let written = 0;
    while (this.emitted < this.received) this.emit(output, written++);
    return this.slice(output, written);
  }

  private take(channels: readonly Float32Array[], i: number): void {
    const frame = this.received++;
    const at = frame % this.size;
    let peak = 0;
    for (let c = 0; c < channels.length; c++) {
      const x = channels[c]![i]!;
      this.pending[c]![at] = x;
      peak = Math.max(peak, Math.abs(x));
    }
    const needed = peak > this.ceiling ? this.ceiling / peak : 1;
    this.needed[at] = needed;
    while (this.tail > this.head && this.needed[this.queue[(this.tail - 1) % this.size]! % this.size]! >= needed) this.tail--;
    this.queue[this.tail++ % this.size] = frame;
  }

  private emit(output: Float32Array[], index: number): void {
    const frame = this.emitted++;
    while (this.queue[this.head % this.size]! < frame) this.head++;
    const ahead = this.needed[this.queue[this.head % this.size]! % this.size]!;
    this.sum += ahead - (frame >= this.span ? this.ahead[(frame - this.span) % this.size]! : 1);
    this.ahead[frame % this.size] = ahead;
    const smoothed = Math.min(this.sum / this.span, ahead);
    this.gain = Math.min(smoothed, this.release * this.gain + (1 - this.release) * smoothed);
    for (let c = 0; c < output.length; c++) output[c]![index] = this.pending[c]![frame % this.size]! * this.gain;
  }

  private slice(output: Float32Array[], frames: number): PcmAudio {
    return { sampleRate: this.sampleRate, channels: output.map((channel) => channel.subarray(0, frames)) };
  }
}
