import type { PcmAudio } from './types.ts';

/** The fade-out of a sound cut short by `maxMs`: long enough not to click, short enough to keep the sound. */
const CUT_FADE_S = 0.25;

/** What of a sound a rendition plays. */
export interface PlayedPart {
  /** Keep only this stretch, in milliseconds from the start. */
  trim?: { startMs: number; endMs: number };
  /** Keep at most this many milliseconds (after trim), fading out over the last CUT_FADE_S. */
  maxMs?: number;
}

/**
 * The part of a decoded stream a rendition plays: the trimmed stretch, then at most `maxMs` of
 * it with a linear fade-out when that cuts it short (audio short enough is kept whole). Stops
 * reading the source as soon as the played part is known, so a preview of an hour-long sound
 * decodes only its first seconds; holds back at most the fade's frames.
 */
export async function* playedAudio(
  chunks: AsyncIterable<PcmAudio>,
  sampleRate: number,
  part: PlayedPart,
): AsyncGenerator<PcmAudio> {
  const framesOf = (ms: number) => Math.max(0, Math.round((ms * sampleRate) / 1000));
  let start = 0;
  let end = Infinity;
  // An empty stretch keeps the whole sound, as a trim that finds nothing to cut.
  if (part.trim && framesOf(part.trim.endMs) > framesOf(part.trim.startMs)) {
    start = framesOf(part.trim.startMs);
    end = framesOf(part.trim.endMs);
  }
  const keep = part.maxMs === undefined ? Infinity : framesOf(part.maxMs);
  const fade = Math.min(keep, Math.round(CUT_FADE_S * sampleRate));
  const fadeStart = start + keep - fade;
  // One frame past the kept part tells whether the sound was cut short.
  const stopAt = Math.min(end, start + keep + 1);
  const held: PcmAudio[] = [];
  let position = 0;
  for await (const chunk of chunks) {
    const length = chunk.channels[0]?.length ?? 0;
    // This chunk's played frames [from, to): those before the fade go on, the others wait.
    const from = Math.max(start, position);
    const to = Math.min(end, start + keep, position + length);
    const split = Math.max(from, Math.min(fadeStart, to));
    if (split > from) yield slice(chunk, from - position, split - position);
    if (to > split) held.push(slice(chunk, split - position, to - position));
    position += length;
    if (position >= stopAt) break;
  }
  const cutShort = Math.min(end, position) - start > keep;
  if (cutShort) fadeOut(held, fade);
  yield* held;
}

function slice(chunk: PcmAudio, from: number, to: number): PcmAudio {
  return { sampleRate: chunk.sampleRate, channels: chunk.channels.map((channel) => channel.slice(from, to)) };
}

/**
 * Scales the last `fade` frames (all of `held`) down to silence: the last frame by 0, the first by
 * (fade - 1) / fade.
 */
function fadeOut(held: PcmAudio[], fade: number): void {
  let remaining = held.reduce((frames, chunk) => frames + (chunk.channels[0]?.length ?? 0), 0);
  for (const chunk of held) {
    const length = chunk.channels[0]?.length ?? 0;
    for (let i = 0; i < length; i++) {
      const step = remaining - 1 - i;
      for (const channel of chunk.channels) channel[i] = channel[i]! * (step / fade);
    }
    remaining -= length;
  }
}

/** The chunks scaled by `gainDb`. */
export async function* amplified(chunks: AsyncIterable<PcmAudio>, gainDb: number): AsyncGenerator<PcmAudio> {
  const gain = 10 ** (gainDb / 20);
  for await (const chunk of chunks) {
    yield { sampleRate: chunk.sampleRate, channels: chunk.channels.map((channel) => channel.map((x) => x * gain)) };
  }
}
