import type { SourceAudio } from '../audio/jobs.ts';
import { mp3SampleRate } from '../audio/encode/index.ts';
import type { Loop } from '../catalog/sound.ts';
import type { FoundLoop } from './tags/loop-tags.ts';

export type { FoundLoop } from './tags/loop-tags.ts';
export type { SourceAudio } from '../audio/jobs.ts';

/**
 * The loop a sound is stored with, from the points given for its source file: checked against
 * the source's length (0 <= start < end <= length, in the source's frames), then counted in the
 * frames of the catalog's MP3. An MP3 source is stored as it is; any other is encoded at
 * mp3SampleRate, and where that rate differs from the source's (a 96 kHz WAV stored at 48 kHz)
 * the points are scaled to it and rounded to the nearest frame. A loop that does not fit is
 * ignored with a note, as a damaged tag is: the sound is still ingested, as no loop.
 */
export function resolveLoop(found: FoundLoop, audio: SourceAudio): { loop: Loop } | { note: string } {
  const end = found.end ?? audio.frames;
  if (!(found.start < end && end <= audio.frames)) {
    const given = found.end === null ? `from frame ${found.start} to the end` : `frames ${found.start} to ${found.end}`;
    return {
      note:
        `loop ignored (${found.source}): ${given} do not fit a sound of ${audio.frames} frames ` +
        '(0 <= start < end <= length, end exclusive)',
    };
  }
  const rate = audio.format === 'mp3' ? audio.sampleRate : mp3SampleRate(audio.sampleRate);
  if (rate === audio.sampleRate) return { loop: { startSample: found.start, endSample: end } };
  const scale = (frame: number) => Math.round((frame * rate) / audio.sampleRate);
  const loop = { startSample: scale(found.start), endSample: Math.min(scale(end), scale(audio.frames)) };
  if (loop.startSample >= loop.endSample)
    return { note: `loop ignored (${found.source}): shorter than a frame at the catalog's ${rate} Hz` };
  return { loop };
}
