import { ID3V2_HEADER_BYTES, id3v2TagLength } from '../../audio/decode/id3.ts';
import { MAX_TAG_BYTES, TagError, type BoundedTagFile } from './bounded-file.ts';

/**
 * An ID3v2.2 or 2.3 tag unsynchronised as a whole (every 0xFF followed by a 0x00 that is not
 * data), given back as it was before: music-metadata undoes unsynchronisation only frame by frame,
 * as ID3v2.4 writes it. Null when the file does not start with such a tag.
 */
export async function resynchronisedId3(file: BoundedTagFile): Promise<Uint8Array | null> {
  const header = await file.bytesAt(0, ID3V2_HEADER_BYTES);
  const length = id3v2TagLength(header);
  if (length === 0 || header[3]! > 3 || (header[5]! & 0x80) === 0) return null;
  if (length > MAX_TAG_BYTES) throw new TagError(`an ID3 tag of ${length} bytes is larger than 1 MiB`);
  const tag = await file.bytesAt(0, length);
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
