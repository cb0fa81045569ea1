import type { SourcedFields } from './fields.ts';
import { toFields } from './fields.ts';
import { MAX_CHUNKS, MAX_TAG_BYTES, type TagFile } from './tag-file.ts';
import { decodeUnlabelled } from './text.ts';

/**
 * The text chunks of an AIFF or AIFF-C file: NAME gives the name, ANNO (there may be several)
 * the description. The chunks are found by walking the FORM with seeks.
 */
export async function readAiffTags(file: TagFile): Promise<{ found: SourcedFields[]; notes: string[] }> {
  const notes: string[] = [];
  let name: string | undefined;
  const annotations: string[] = [];
  let pos = 12;
  for (let chunks = 0; chunks < MAX_CHUNKS && pos + 8 <= file.size; chunks++) {
    const header = await file.read(pos, 8);
    if (header.length < 8) break;
    const id = String.fromCharCode(...header.subarray(0, 4));
    const size = new DataView(header.buffer, header.byteOffset, 8).getUint32(4);
    if (id === 'NAME' || id === 'ANNO') {
      if (size > MAX_TAG_BYTES) notes.push(`${id} chunk of ${size} bytes is larger than 1 MiB; it was ignored`);
      else {
        const text = decodeUnlabelled(await file.read(pos + 8, size));
        if (id === 'NAME') name ??= text;
        else annotations.push(text);
      }
    }
    pos += 8 + size + (size % 2);
  }
  const fields = toFields({ title: name, description: annotations.filter((text) => text.trim()).join('\n') || undefined });
  return { found: Object.keys(fields).length > 0 ? [{ source: 'aiff', fields }] : [], notes };
}
