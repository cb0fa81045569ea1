import { ID3V2_HEADER_BYTES, id3v2TagLength } from '../../audio/decode/id3.ts';
import { MAX_TAG_BYTES, TagError, type BoundedTagFile } from './bounded-file.ts';

/**
 * The ID3v2 tag an MP3 starts with, for music-metadata to read on its own (the MPEG frames after it
 * hold no tags, so they are not scanned). A tag unsynchronised as a whole, as ID3v2.2 and 2.3 write
 * it (every 0xFF followed by a 0x00 that is not data), is given back as it was before:
 * music-metadata undoes unsynchronisation only frame by frame, as ID3v2.4 writes it. Null when
 * the file starts with no ID3v2 tag.
 */
export async function leadingId3Tag(file: BoundedTagFile): Promise<Uint8Array | null> {
  const header = await file.bytesAt(0, ID3V2_HEADER_BYTES);
  const length = id3v2TagLength(header);
  if (length === 0) return null;
  if (length > MAX_TAG_BYTES) throw new TagError(`a tag of ${length} bytes is larger than 1 MiB`);
  const tag = await file.bytesAt(0, length);
  if (header[3]! > 3 || (header[5]! & 0x80) === 0) return tag;
  const out = new Uint8Array(tag.length);
  out.set(tag.subarray(0, ID3V2_HEADER_BYTES));
  let size = ID3V2_HEADER_BYTES;
  for (let i = ID3V2_HEADER_BYTES; i < tag.length; i++) {
    out[size++] = tag[i]!;
    if (tag[i] === 0xff && tag[i + 1] === 0x00) i++;
  }
  const body = size - ID3V2_HEADER_BYTES;
  out[5] = header[5]! & 0x7f;
  out.set([(body >> 21) & 0x7f, (body >> 14) & 0x7f, (body >> 7) & 0x7f, body & 0x7f], 6);
  return out.subarray(0, size);
}
