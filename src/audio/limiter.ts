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
  /**
   * Rings of `size` frames (span + 1): input not yet output, the gain each frame needs, the
   * look-ahead minimum of output frames.
   */
  private readonly size: number;
  private readonly pending: Float32Array[];
  private readonly needed: Float64Array;
  private readonly ahead: Float64Array;
  /**
   * Ring positions of the frames whose needed gain may still be a window's minimum, in frame
   * order and increasing in needed gain (a monotonic queue); `head` and `tail` are its own ring positions.
   */
  private readonly queue: Int32Array;
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
    // One slot more than it can hold, so that a full queue is not taken for an empty one.
    this.queue = new Int32Array(this.size + 1);
    this.sum = this.span;
  }

  /** Takes the next frames and returns those now limited (fewer than given while the look-ahead fills). */
  push(chunk: PcmAudio): PcmAudio {
    const length = chunk.channels[0]?.length ?? 0;
    const output = this.pending.map(() => new Float32Array(length));
    let written = 0;
    for (let i = 0; i < length; i++) {
      this.take(chunk.channels, i);
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
    const { size, needed, queue } = this;
    const slots = queue.length;
    const at = this.received % size;
    this.received++;
    let peak = 0;
    for (let c = 0; c < channels.length; c++) {
      const x = channels[c]![i]!;
      this.pending[c]![at] = x;
      const a = x < 0 ? -x : x;
      if (a > peak) peak = a;
    }
    const gain = peak > this.ceiling ? this.ceiling / peak : 1;
    needed[at] = gain;
    let tail = this.tail;
    while (tail !== this.head && needed[queue[(tail + slots - 1) % slots]!]! >= gain) tail = (tail + slots - 1) % slots;
    queue[tail] = at;
    this.tail = (tail + 1) % slots;
  }

  private emit(output: Float32Array[], index: number): void {
    const { size, queue } = this;
    const at = this.emitted % size;
    // The window has just moved past the previous frame: it leaves the queue if it heads it.
    const previous = (at + size - 1) % size;
    if (this.emitted > 0 && queue[this.head] === previous) this.head = (this.head + 1) % queue.length;
    const ahead = this.needed[queue[this.head]!]!;
    // The frame `span` back leaves the smoothing sum; its ring position is the one after this frame's.
    this.sum += ahead - (this.emitted >= this.span ? this.ahead[(at + 1) % size]! : 1);
    this.ahead[at] = ahead;
    this.emitted++;
    const smoothed = Math.min(this.sum / this.span, ahead);
    this.gain = Math.min(smoothed, this.release * this.gain + (1 - this.release) * smoothed);
    for (let c = 0; c < output.length; c++) output[c]![index] = this.pending[c]![at]! * this.gain;
  }

  private slice(output: Float32Array[], frames: number): PcmAudio {
    return { sampleRate: this.sampleRate, channels: output.map((channel) => channel.subarray(0, frames)) };
  }
}
