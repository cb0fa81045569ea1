import { MAX_CHUNKS, MAX_TAG_BYTES, TagError, type TagFile } from './tag-file.ts';
import { readVorbisComment } from './vorbis.ts';
import type { RawTags } from './fields.ts';

const VORBIS_COMMENT = 4;

/** The Vorbis comments of a native FLAC stream starting with "fLaC" at `start`, by walking its metadata blocks. */
export async function readFlacComments(file: TagFile, start: number): Promise<RawTags | null> {
  let pos = start + 4;
  for (let blocks = 0; blocks < MAX_CHUNKS; blocks++) {
    const header = await file.read(pos, 4);
    if (header.length < 4) return null;
    const type = header[0]! & 0x7f;
    const length = (header[1]! << 16) | (header[2]! << 8) | header[3]!;
    if (type === VORBIS_COMMENT) {
      if (length > MAX_TAG_BYTES) throw new TagError(`FLAC comment block of ${length} bytes is larger than 1 MiB`);
      return readVorbisComment(await file.read(pos + 4, length));
    }
    if (header[0]! & 0x80) return null; // the last metadata block
    pos += 4 + length;
  }
  return null;
}
