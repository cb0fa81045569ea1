/**
 * Writers for the tags audio files carry, so tests build every tagged file themselves: ID3v2
 * frames, Vorbis comment blocks (in FLAC metadata and Ogg pages), and RIFF chunks (bext,
 * LIST/INFO, iXML). Only the bytes each spec fixes; no audio library involved.
 */
import { ascii, chunkHeader, concat, u32 } from '../../audio/helpers/wav.ts';

const utf8 = new TextEncoder();

// ---- ID3v2

export type Id3Encoding = 0 | 1 | 2 | 3;

/** Text in one of ID3's four encodings: Latin-1, UTF-16 with BOM, UTF-16BE, UTF-8. */
export function id3Text(text: string, encoding: Id3Encoding): Uint8Array {
  if (encoding === 0) return Uint8Array.from(text, (ch) => ch.charCodeAt(0) & 0xff);
  if (encoding === 3) return utf8.encode(text);
  const units = Array.from(text, (ch) => ch.charCodeAt(0));
  const bytes = units.flatMap((unit) => (encoding === 1 ? [unit & 0xff, unit >> 8] : [unit >> 8, unit & 0xff]));
  return Uint8Array.from(encoding === 1 ? [0xff, 0xfe, ...bytes] : bytes);
}

const terminator = (encoding: Id3Encoding) => new Uint8Array(encoding === 1 || encoding === 2 ? 2 : 1);

export function textFrame(text: string, encoding: Id3Encoding = 3): Uint8Array {
  return concat([Uint8Array.of(encoding), id3Text(text, encoding)]);
}

export function commentFrame(text: string, description = '', encoding: Id3Encoding = 3): Uint8Array {
  return concat([
    Uint8Array.of(encoding),
    ascii('eng'),
    id3Text(description, encoding),
    terminator(encoding),
    id3Text(text, encoding),
  ]);
}

export function userTextFrame(description: string, value: string, encoding: Id3Encoding = 3): Uint8Array {
  return concat([
    Uint8Array.of(encoding),
    id3Text(description, encoding),
    terminator(encoding),
    id3Text(value, encoding),
  ]);
}

function syncsafe(value: number): Uint8Array {
  return Uint8Array.of((value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f);
}

function u32be(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value >>> 0);
  return bytes;
}

/** An ID3v2.3 or 2.4 tag of the given frames; `sizeOverride` lets a test lie about one frame's size. */
export function id3Tag(frames: Array<[string, Uint8Array, number?]>, version: 3 | 4 = 3, padding = 16): Uint8Array {
  const body = concat(
    frames.map(([id, data, sizeOverride]) => {
      const size = sizeOverride ?? data.length;
      return concat([ascii(id), version === 4 ? syncsafe(size) : u32be(size), new Uint8Array(2), data]);
    }),
  );
  const withPadding = concat([body, new Uint8Array(padding)]);
  return concat([ascii('ID3'), Uint8Array.of(version, 0, 0), syncsafe(withPadding.length), withPadding]);
}

// ---- Vorbis comments

/** A Vorbis comment block: vendor, count, then each NAME=value (little-endian lengths). */
export function vorbisComments(comments: string[], vendor = 'test'): Uint8Array {
  const le = (n: number) => u32(n);
  return concat([
    le(utf8.encode(vendor).length),
    utf8.encode(vendor),
    le(comments.length),
    ...comments.flatMap((c) => [le(utf8.encode(c).length), utf8.encode(c)]),
  ]);
}

/** The metadata of a FLAC stream (no audio frames: enough for the tag reader). */
export function flacMetadata(commentBlock: Uint8Array, extraBlocks: Array<[number, Uint8Array]> = []): Uint8Array {
  const header = (type: number, last: boolean, length: number) =>
    Uint8Array.of((last ? 0x80 : 0) | type, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff);
  const streamInfo = new Uint8Array(34);
  streamInfo.set([0x0a, 0xc4, 0x42, 0xf0], 10); // 44.1 kHz, 2 channels, 16 bits
  const blocks: Uint8Array[] = [header(0, false, 34), streamInfo];
  for (const [type, body] of extraBlocks) blocks.push(header(type, false, body.length), body);
  blocks.push(header(4, true, commentBlock.length), commentBlock);
  return concat([ascii('fLaC'), ...blocks]);
}

/**
 * Ogg pages carrying `packets` for one stream, each packet starting a page (as Vorbis and Opus
 * require of their headers), at most `maxSegments` lacing values a page (so packets span pages).
 */
export function oggPages(packets: Uint8Array[], maxSegments = 255, serial = 0x1234): Uint8Array {
  const pages: Uint8Array[] = [];
  packets.forEach((packet, index) => {
    const segments: Array<{ value: number; bytes: Uint8Array }> = [];
    for (let offset = 0; ; ) {
      const value = Math.min(255, packet.length - offset);
      segments.push({ value, bytes: packet.subarray(offset, offset + value) });
      offset += value;
      if (value < 255) break;
    }
    for (let i = 0; i < segments.length; i += maxSegments) {
      const part = segments.slice(i, i + maxSegments);
      const header = new Uint8Array(27);
      const view = new DataView(header.buffer);
      header.set(ascii('OggS'));
      // Header type: this page goes on with the previous page's packet; the stream's first page; its last.
      const last = index === packets.length - 1 && i + maxSegments >= segments.length;
      header[5] = (i > 0 ? 0x01 : 0) | (pages.length === 0 ? 0x02 : 0) | (last ? 0x04 : 0);
      view.setUint32(14, serial, true);
      view.setUint32(18, pages.length / 3, true);
      header[26] = part.length;
      pages.push(header, Uint8Array.from(part.map((s) => s.value)), concat(part.map((s) => s.bytes)));
    }
  });
  return concat(pages);
}

/** An Ogg Vorbis stream's three header packets: identification, the given comment block, setup (no audio). */
export function vorbisHeaders(commentBlock: Uint8Array): Uint8Array[] {
  return [
    concat([Uint8Array.of(1), ascii('vorbis'), new Uint8Array(23)]),
    concat([Uint8Array.of(3), ascii('vorbis'), commentBlock, Uint8Array.of(1)]),
    concat([Uint8Array.of(5), ascii('vorbis'), new Uint8Array(8)]),
  ];
}

// ---- RIFF chunks

/** A bext chunk body: the 256-byte Description, then the rest of the fixed fields left empty. */
export function bextChunk(description: string): Uint8Array {
  const body = new Uint8Array(602);
  body.set(utf8.encode(description).subarray(0, 256));
  return body;
}

/** A LIST chunk body of type INFO with the given sub-chunks (text is NUL-terminated, padded to even). */
export function infoList(fields: Array<[string, string]>): Uint8Array {
  return concat([
    ascii('INFO'),
    ...fields.map(([id, text]) => {
      const body = concat([utf8.encode(text), new Uint8Array(1)]);
      return concat([chunkHeader(id, body.length), body, new Uint8Array(body.length % 2)]);
    }),
  ]);
}

/** An iXML document with the given USER fields (Soundminer style) and an optional recorder NOTE. */
export function ixmlDocument(user: Record<string, string>, note?: string): Uint8Array {
  const fields = Object.entries(user)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  return utf8.encode(
    `<?xml version="1.0" encoding="UTF-8"?><BWFXML><IXML_VERSION>2.10</IXML_VERSION>` +
      `${note ? `<NOTE>${note}</NOTE>` : ''}<USER>${fields}</USER></BWFXML>`,
  );
}

/** Appends a chunk after the audio (where recorders put iXML) and fixes the RIFF size. */
export function appendRiffChunk(wav: Uint8Array, id: string, body: Uint8Array): Uint8Array {
  const out = concat([wav, chunkHeader(id, body.length), body, new Uint8Array(body.length % 2)]);
  new DataView(out.buffer).setUint32(4, out.length - 8, true);
  return out;
}
