import type { ITag } from 'music-metadata';

/**
 * Loop points given for a source file, in the file's own sample frames: `end` is the frame after
 * the loop's last (exclusive), null for the end of the sound. Not yet checked against the file's
 * length: ingest/loop.ts does that once the audio is decoded.
 */
export interface FoundLoop {
  start: number;
  end: number | null;
  source: 'sidecar' | 'smpl' | 'vorbis';
}

/** The smpl chunk's fixed fields, before its list of loops; each loop is 24 bytes. */
const SMPL_HEADER_BYTES = 36;
const SMPL_LOOP_BYTES = 24;

/**
 * The first loop of a WAV `smpl` chunk (its body, after the chunk header): dwStart and dwEnd of
 * the first loop record, in sample frames. smpl's dwEnd is the loop's last frame, included: the
 * loop found ends one frame later. Null when the chunk lists no loop; an error when it is cut short.
 */
export function smplLoop(body: Uint8Array): FoundLoop | null {
  if (body.length < SMPL_HEADER_BYTES) throw new Error(`the chunk is ${body.length} bytes, shorter than its header`);
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const loops = view.getUint32(28, true);
  if (loops === 0) return null;
  if (body.length < SMPL_HEADER_BYTES + SMPL_LOOP_BYTES) throw new Error('it counts loops but holds none');
  const start = view.getUint32(SMPL_HEADER_BYTES + 8, true);
  const last = view.getUint32(SMPL_HEADER_BYTES + 12, true);
  return { start, end: last + 1, source: 'smpl' };
}

/**
 * LOOPSTART and LOOPLENGTH Vorbis comments (Ogg, FLAC; names in any case), as RPG Maker and
 * many game engines write them: the first frame of the loop and how many frames it holds. A loop
 * without LOOPLENGTH runs to the end of the sound (LOOPEND, the frame after the last, is read
 * too). Null without LOOPSTART; a note when a value is no whole number.
 */
export function vorbisLoop(tags: readonly ITag[]): { loop: FoundLoop | null; note?: string } {
  const value = (name: string) => {
    const tag = tags.find((each) => each.id.toUpperCase() === name);
    return typeof tag?.value === 'string' ? tag.value.trim() : undefined;
  };
  const [start, length, end] = [value('LOOPSTART'), value('LOOPLENGTH'), value('LOOPEND')];
  if (start === undefined) return { loop: null };
  const bad = [
    ['LOOPSTART', start],
    ['LOOPLENGTH', length],
    ['LOOPEND', end],
  ].find(([, text]) => text !== undefined && !/^\d{1,15}$/.test(text));
  if (bad)
    return { loop: null, note: `loop ignored: ${bad[0]} "${bad[1]!.slice(0, 40)}" is no whole number of samples` };
  const first = Number(start);
  if (length !== undefined) return { loop: { start: first, end: first + Number(length), source: 'vorbis' } };
  if (end !== undefined) return { loop: { start: first, end: Number(end), source: 'vorbis' } };
  return { loop: { start: first, end: null, source: 'vorbis' } };
}
