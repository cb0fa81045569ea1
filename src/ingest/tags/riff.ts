import type { RawTags, SourcedFields } from './fields.ts';
import { toFields } from './fields.ts';
import { readIxml } from './ixml.ts';
import { MAX_CHUNKS, MAX_TAG_BYTES, TagError, type TagFile } from './tag-file.ts';
import { decodeUnlabelled } from './text.ts';

const BEXT_DESCRIPTION_BYTES = 256;

/**
 * The tags of a RIFF/WAVE (or RF64/BW64) file, by walking its chunks with seeks (iXML often sits
 * after the audio): iXML first (what libraries write deliberately), then the BWF bext
 * Description, then LIST/INFO (INAM, ICMT, ISBJ, IKEY, IGNR). A bad chunk is a note; the others
 * still count.
 */
export async function readRiffTags(file: TagFile): Promise<{ found: SourcedFields[]; notes: string[] }> {
  const header = await file.read(0, 12);
  const notes: string[] = [];
  const bySource: Partial<Record<'ixml' | 'bext' | 'info', RawTags>> = {};
  let ds64DataBytes: number | null = null;
  let pos = 12;
  for (let chunks = 0; chunks < MAX_CHUNKS && pos + 8 <= file.size; chunks++) {
    const chunkHeader = await file.read(pos, 8);
    if (chunkHeader.length < 8) break;
    const id = String.fromCharCode(...chunkHeader.subarray(0, 4));
    let size = new DataView(chunkHeader.buffer, chunkHeader.byteOffset, 8).getUint32(4, true);
    if (id === 'data' && size === 0xffffffff) {
      if (ds64DataBytes === null) break; // an open-ended data chunk: nothing after it can be found
      size = ds64DataBytes;
    }
    try {
      if (id === 'ds64') ds64DataBytes = readUint64(await file.read(pos + 8, 16), 8);
      else if (id === 'bext') bySource.bext = { description: bextDescription(decodeUnlabelled(await file.read(pos + 8, Math.min(size, BEXT_DESCRIPTION_BYTES)))) };
      else if (id === 'LIST' || id === 'iXML') {
        if (size > MAX_TAG_BYTES) throw new TagError(`${id} chunk of ${size} bytes is larger than 1 MiB`);
        const body = await file.read(pos + 8, size);
        if (id === 'iXML') bySource.ixml = readIxml(body);
        else if (String.fromCharCode(...body.subarray(0, 4)) === 'INFO') bySource.info = readInfo(body.subarray(4), notes);
      }
    } catch (error) {
      if (!(error instanceof TagError)) throw error;
      notes.push(`${id} chunk ignored: ${error.message}`);
    }
    // Chunks are padded to an even length; some writers forget, so only a zero byte is padding.
    pos += 8 + size;
    if (size % 2 === 1 && (await file.read(pos, 1))[0] === 0) pos++;
  }
  if (String.fromCharCode(...header.subarray(8, 12)) !== 'WAVE') notes.push('not a RIFF/WAVE file: no tags read');
  const found = (['ixml', 'bext', 'info'] as const)
    .filter((source) => bySource[source])
    .map((source) => ({ source, fields: toFields(bySource[source]!) }))
    .filter(({ fields }) => Object.keys(fields).length > 0);
  return { found, notes };
}

/**
 * Field recorders fill the bext Description with their own codes ("sSCENE=12", "sTAKE=3",
 * "sNOTE=..."; iXML's guidelines name them): such text describes nothing but its NOTE, if any.
 */
function bextDescription(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (lines.length === 0 || !lines.every((line) => /^[a-zA-Z][a-zA-Z0-9]{0,15}=/.test(line))) return text;
  return lines.find((line) => /^[a-zA-Z]?NOTE=/i.test(line))?.replace(/^[^=]*=/, '');
}

const INFO_FIELDS: Record<string, keyof RawTags | 'subject'> = { INAM: 'title', ICMT: 'description', ISBJ: 'subject', IKEY: 'keywords', IGNR: 'genre' };

/** LIST/INFO sub-chunks: four-letter ids with text (IKEY is a semicolon-separated keyword list). */
function readInfo(body: Uint8Array, notes: string[]): RawTags {
  const raw: RawTags = {};
  let subject: string | undefined;
  let pos = 0;
  while (pos + 8 <= body.length) {
    const id = String.fromCharCode(...body.subarray(pos, pos + 4));
    const size = new DataView(body.buffer, body.byteOffset + pos + 4, 4).getUint32(0, true);
    if (pos + 8 + size > body.length) {
      notes.push(`LIST/INFO ${id.replace(/[^\x20-\x7e]/g, '?')} runs past the end of its list; it was ignored`);
      break;
    }
    const value = decodeUnlabelled(body.subarray(pos + 8, pos + 8 + size));
    const field = INFO_FIELDS[id];
    if (field === 'keywords') raw.keywords = [value];
    else if (field === 'subject') subject = value;
    else if (field === 'title' || field === 'description' || field === 'genre') raw[field] = value;
    pos += 8 + size + (size % 2);
  }
  if (!raw.description?.trim() && subject) raw.description = subject;
  return raw;
}

function readUint64(bytes: Uint8Array, offset: number): number | null {
  if (bytes.length < offset + 8) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(offset + 4, true) * 2 ** 32 + view.getUint32(offset, true);
}
