import { type RawTags } from './fields.ts';
import { TagError } from './tag-file.ts';
import { decodeLatin1, decodeUtf16, decodeUtf8 } from './text.ts';

/** TXXX descriptions libraries store keywords and UCS fields under (matched without case). */
const TXXX_FIELDS: Record<string, 'keywords' | 'description' | 'catId' | 'ucsCategory' | 'ucsSubCategory'> = {
  KEYWORDS: 'keywords', KEYWORD: 'keywords', TAGS: 'keywords',
  DESCRIPTION: 'description',
  CATID: 'catId', CATEGORY: 'ucsCategory', SUBCATEGORY: 'ucsSubCategory',
};

/**
 * The fields of an ID3v2.2, 2.3 or 2.4 tag (`tag` starts with "ID3"; it may be cut short): TIT2
 * title, COMM comment, TCON genre, and TXXX frames named as above. Frames that are compressed or
 * encrypted are skipped; a damaged frame ends the reading and is reported in `notes`.
 */
export function readId3(tag: Uint8Array): { raw: RawTags; notes: string[] } {
  if (tag.length < 10 || tag[0] !== 0x49 || tag[1] !== 0x44 || tag[2] !== 0x33) throw new TagError('not an ID3v2 tag');
  const major = tag[3]!;
  const flags = tag[5]!;
  if (major < 2 || major > 4) throw new TagError(`unsupported ID3v2.${major} tag`);
  if (major === 2 && flags & 0x40) throw new TagError('compressed ID3v2.2 tag');
  const declared = syncsafe(tag, 6);
  let body = tag.subarray(10, 10 + declared);
  // Before 2.4 the whole tag is unsynchronised at once; in 2.4 each frame says so itself.
  if (flags & 0x80 && major < 4) body = resync(body);
  let pos = 0;
  if (flags & 0x40) pos = major === 3 ? 4 + u32(body, 0) : syncsafe(body, 0);
  const notes: string[] = [];
  if (body.length < declared) notes.push(`ID3 tag cut short: read ${body.length} of ${declared} bytes`);
  const headerBytes = major === 2 ? 6 : 10;
  const frames = new Map<string, Uint8Array[]>();
  while (pos + headerBytes <= body.length) {
    const id = String.fromCharCode(...body.subarray(pos, pos + (major === 2 ? 3 : 4)));
    if (id.charCodeAt(0) === 0) break; // padding
    if (!/^[A-Z0-9]{3,4}$/.test(id)) {
      notes.push(`damaged ID3 frame at byte ${10 + pos}; the frames after it were ignored`);
      break;
    }
    const size = major === 2 ? (body[pos + 3]! << 16) | (body[pos + 4]! << 8) | body[pos + 5]! : major === 3 ? u32(body, pos + 4) : syncsafe(body, pos + 4);
    const start = pos + headerBytes;
    if (start + size > body.length) {
      notes.push(`ID3 frame ${id} runs past the end of the tag; it was ignored`);
      break;
    }
    const data = frameData(body.subarray(start, start + size), major, major === 2 ? 0 : body[pos + 9]!);
    if (data) frames.set(id, [...(frames.get(id) ?? []), data]);
    pos = start + size;
  }
  return { raw: rawFromFrames(frames), notes };
}

/** The frame's content, or null for a compressed or encrypted frame (we do not inflate tags). */
function frameData(data: Uint8Array, major: number, format: number): Uint8Array | null {
  if (major === 3) {
    if (format & 0xc0) return null;
    return format & 0x20 ? data.subarray(1) : data; // a group byte
  }
  if (major === 4) {
    if (format & 0x0c) return null;
    let content = data.subarray((format & 0x40 ? 1 : 0) + (format & 0x01 ? 4 : 0));
    if (format & 0x02) content = resync(content);
    return content;
  }
  return data;
}

function rawFromFrames(frames: Map<string, Uint8Array[]>): RawTags {
  const raw: RawTags = {};
  const text = (id: string) => (frames.get(id) ?? []).flatMap(textValues);
  const title = [...text('TIT2'), ...text('TT2')][0];
  if (title) raw.title = title;
  const genre = [...text('TCON'), ...text('TCO')].join(', ');
  if (genre) raw.genre = genre;
  // A comment with an empty description is the user's; iTunes keeps its own data in named ones.
  const comments = [...(frames.get('COMM') ?? []), ...(frames.get('COM') ?? [])].map(parseComment).filter((c): c is { description: string; text: string } => c !== null && c.text.trim() !== '' && !c.description.startsWith('iTun'));
  const comment = comments.find((c) => c.description === '') ?? comments[0];
  if (comment) raw.description = comment.text;
  for (const data of [...(frames.get('TXXX') ?? []), ...(frames.get('TXX') ?? [])]) {
    const field = userText(data);
    const key = field && TXXX_FIELDS[field.description.trim().toUpperCase()];
    if (!field || !key || !field.value.trim()) continue;
    if (key === 'keywords') raw.keywords = [...(raw.keywords ?? []), field.value];
    else if (key === 'description') raw.description ??= field.value;
    else raw[key] ??= field.value;
  }
  return raw;
}

/** A text frame's values: an encoding byte, then strings (several in 2.4, separated by NULs). */
function textValues(data: Uint8Array): string[] {
  if (data.length < 1) return [];
  return decode(data.subarray(1), data[0]!).split('\u0000').map((value) => value.trim()).filter(Boolean);
}

function parseComment(data: Uint8Array): { description: string; text: string } | null {
  if (data.length < 4) return null;
  const [description, text] = splitTerminated(data.subarray(4), data[0]!);
  return { description: decode(description, data[0]!), text: decode(text, data[0]!).replace(/\u0000+$/, '') };
}

function userText(data: Uint8Array): { description: string; value: string } | null {
  if (data.length < 1) return null;
  const [description, value] = splitTerminated(data.subarray(1), data[0]!);
  return { description: decode(description, data[0]!), value: decode(value, data[0]!).split('\u0000').filter(Boolean).join(', ') };
}

/** Splits at the first terminator: one zero byte, or two aligned ones in UTF-16. */
function splitTerminated(bytes: Uint8Array, encoding: number): [Uint8Array, Uint8Array] {
  if (encoding === 1 || encoding === 2) {
    for (let i = 0; i + 1 < bytes.length; i += 2) if (bytes[i] === 0 && bytes[i + 1] === 0) return [bytes.subarray(0, i), bytes.subarray(i + 2)];
  } else {
    const end = bytes.indexOf(0);
    if (end >= 0) return [bytes.subarray(0, end), bytes.subarray(end + 1)];
  }
  return [bytes, new Uint8Array(0)];
}

function decode(bytes: Uint8Array, encoding: number): string {
  if (encoding === 1) return decodeUtf16(bytes);
  if (encoding === 2) return decodeUtf16(bytes, true);
  if (encoding === 3) return decodeUtf8(bytes);
  return decodeLatin1(bytes);
}

/** Undoes unsynchronisation: every 0xFF 0x00 was written for a 0xFF. */
function resync(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    out[length++] = bytes[i]!;
    if (bytes[i] === 0xff && bytes[i + 1] === 0x00) i++;
  }
  return out.subarray(0, length);
}

function syncsafe(bytes: Uint8Array, offset: number): number {
  let value = 0;
  for (let i = 0; i < 4; i++) value = value * 128 + ((bytes[offset + i] ?? 0) & 0x7f);
  return value;
}

function u32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] ?? 0) * 2 ** 24) + (((bytes[offset + 1] ?? 0) << 16) | ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0));
}
