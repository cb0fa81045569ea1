import type { RawTags } from './fields.ts';
import { readIxml } from './ixml.ts';
import { MAX_TAG_BYTES, TagError, type BoundedTagFile } from './bounded-file.ts';
import { decodeUnlabelled } from './text.ts';
import { smplLoop, type FoundLoop } from './loop-tags.ts';

const BEXT_DESCRIPTION_BYTES = 256;
const MAX_CHUNKS = 10_000;
/** A smpl chunk's header and a few loops: only the first loop is read. */
const SMPL_READ_BYTES = 36 + 24 * 4;

/**
 * What music-metadata does not read in a RIFF/WAVE (or RF64/BW64) file: the iXML chunk, the
 * BWF bext Description as text (music-metadata keeps only its ASCII) and the first loop of the
 * smpl chunk. Found by walking the chunks with seeks (iXML often sits after the audio). A bad
 * chunk is a note; the others still count.
 */
export async function readBwfTags(
  file: BoundedTagFile,
): Promise<{ ixml?: RawTags; bext?: RawTags; loop?: FoundLoop; notes: string[] }> {
  const notes: string[] = [];
  const found: { ixml?: RawTags; bext?: RawTags; loop?: FoundLoop } = {};
  let ds64DataBytes: number | null = null;
  let pos = 12;
  for (let chunks = 0; chunks < MAX_CHUNKS && pos + 8 <= file.fileInfo.size; chunks++) {
    const header = await file.bytesAt(pos, 8);
    if (header.length < 8) break;
    const id = String.fromCharCode(...header.subarray(0, 4));
    let size = new DataView(header.buffer, header.byteOffset, 8).getUint32(4, true);
    if (id === 'data' && size === 0xffffffff) {
      if (ds64DataBytes === null) break; // an open-ended data chunk: nothing after it can be found
      size = ds64DataBytes;
    }
    try {
      if (id === 'ds64') ds64DataBytes = readUint64(await file.bytesAt(pos + 8, 16), 8);
      else if (id === 'bext')
        found.bext = {
          description: bextDescription(
            decodeUnlabelled(await file.bytesAt(pos + 8, Math.min(size, BEXT_DESCRIPTION_BYTES))),
          ),
        };
      else if (id === 'iXML') {
        if (size > MAX_TAG_BYTES) throw new TagError(`iXML chunk of ${size} bytes is larger than 1 MiB`);
        found.ixml = readIxml(await file.bytesAt(pos + 8, size));
      } else if (id === 'smpl' && found.loop === undefined) {
        const loop = readSmpl(await file.bytesAt(pos + 8, Math.min(size, SMPL_READ_BYTES)));
        if (loop) found.loop = loop;
      }
    } catch (error) {
      if (!(error instanceof TagError)) throw error;
      notes.push(`${id} chunk ignored: ${error.message}`);
    }
    // Chunks are padded to an even length; some writers forget, so only a zero byte is padding.
    pos += 8 + size;
    if (size % 2 === 1 && (await file.bytesAt(pos, 1))[0] === 0) pos++;
  }
  return { ...found, notes };
}

/**
 * Field recorders fill the bext Description with their own codes ("sSCENE=12", "sTAKE=3",
 * "sNOTE=..."; iXML's guidelines name them): such text describes nothing but its NOTE, if any.
 */
function bextDescription(text: string): string | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0 || !lines.every((line) => /^[a-zA-Z][a-zA-Z0-9]{0,15}=/.test(line))) return text;
  return lines.find((line) => /^[a-zA-Z]?NOTE=/i.test(line))?.replace(/^[^=]*=/, '');
}

function readSmpl(body: Uint8Array): FoundLoop | null {
  try {
    return smplLoop(body);
  } catch (error) {
    throw new TagError((error as Error).message);
  }
}

function readUint64(bytes: Uint8Array, offset: number): number | null {
  if (bytes.length < offset + 8) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(offset + 4, true) * 2 ** 32 + view.getUint32(offset, true);
}
