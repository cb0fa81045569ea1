import type { GaplessInfo } from '../types.ts';

/** The MP3 decoder's own delay (a Layer III synthesis filterbank artefact), which the LAME tag leaves out. */
export const DECODER_DELAY = 529;

/**
 * Cuts a decoder's raw output down to the real audio, with ffmpeg's rule: drop the first
 * delay + 529 samples, and the samples from frames * spf - padding + 529 up to frames * spf
 * (what follows would belong to a concatenated stream and is kept). Without a frame count only
 * the start is trimmed; without trusted gapless info nothing is.
 */
export class GaplessTrimmer {
  private position = 0;
  private readonly skipUntil: number;
  private readonly dropFrom: number;
  private readonly dropUntil: number;

  constructor(gapless: GaplessInfo | null, frameCount: number | null, samplesPerFrame: number) {
    this.skipUntil = gapless ? gapless.delay + DECODER_DELAY : 0;
    const total = gapless && frameCount ? frameCount * samplesPerFrame : 0;
    this.dropFrom = gapless && frameCount ? total - gapless.padding + DECODER_DELAY : Infinity;
    this.dropUntil = total;
  }

  /** Trims the next `channels` (all the same length) of decoder output, in order. */
  trim(channels: Float32Array[]): Float32Array[] {
    const start = this.position;
    const length = channels[0]?.length ?? 0;
    this.position += length;
    const ranges = this.keptRanges(start, start + length);
    if (ranges.length === 1 && ranges[0]![0] === start && ranges[0]![1] === start + length) return channels;
    return channels.map((channel) => {
      const parts = ranges.map(([from, to]) => channel.subarray(from - start, to - start));
      if (parts.length === 1) return parts[0]!;
      const joined = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
      let offset = 0;
      for (const part of parts) {
        joined.set(part, offset);
        offset += part.length;
      }
      return joined;
    });
  }

  private keptRanges(from: number, to: number): Array<[number, number]> {
    const ranges: Array<[number, number]> = [];
    const add = (a: number, b: number) => {
      if (b > a) ranges.push([a, b]);
    };
    const keepFrom = Math.max(from, this.skipUntil);
    if (this.dropFrom >= this.dropUntil) {
      add(keepFrom, to);
    } else {
      add(keepFrom, Math.min(to, this.dropFrom));
      add(Math.max(keepFrom, this.dropUntil), to);
    }
    return ranges;
  }
}
