import { need, UnknownHeadError } from './bytes.ts';
import { copyrightOf, type FileTags } from './file-tags.ts';

const CC0_URL = 'https://creativecommons.org/publicdomain/zero/1.0/';
const UTF8 = 3;

/**
 * An MP3 file's head: an ID3v2.4 tag of the sound's in place of the stored file's leading ID3v2
 * tag, if any. The LAME/Xing info frame is the first audio frame, after the tag, and stays as
 * stored, so decoders trim the same samples.
 */
export function mp3Head(stored: Buffer, tags: FileTags) {
  const audioStart = id3Length(stored);
  need(stored, audioStart + 2);
  if (!isFrameSync(stored, audioStart)) throw new UnknownHeadError('not an MP3 file');
  return { head: id3Tag(tags), audioStart };
}

/** The bytes of the ID3v2 tag at the start of `bytes` (0 when there is none). */
function id3Length(bytes: Buffer): number {
  need(bytes, 10);
  if (bytes.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = syncsafe(bytes, 6);
  const footer = (bytes[5]! & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

function isFrameSync(bytes: Buffer, at: number): boolean {
  return bytes[at] === 0xff && (bytes[at + 1]! & 0xe0) === 0xe0;
}

/** The sample rate of the MP3 whose first bytes are `bytes`, from its first frame header. */
export function mp3SampleRate(bytes: Buffer): number {
  const at = id3Length(bytes);
  need(bytes, at + 4);
  if (!isFrameSync(bytes, at)) throw new UnknownHeadError('not an MP3 file');
  const version = (bytes[at + 1]! >> 3) & 3;
  const index = (bytes[at + 2]! >> 2) & 3;
  if (version === 1 || index === 3) throw new UnknownHeadError('an MP3 frame header of no known rate');
  const base = [44_100, 48_000, 32_000][index]!;
  return version === 3 ? base : version === 2 ? base / 2 : base / 4;
}

function id3Tag(tags: FileTags): Buffer {
  const year = tags.createdAt.slice(0, 4);
  const frames = [
    text('TIT2', tags.name),
    ...(tags.description ? [comment(tags.description)] : []),
    ...(tags.category ? [text('TCON', tags.category)] : []),
    text('TCOP', /^\d{4}$/.test(year) ? `${year} ${copyrightOf(tags)}` : copyrightOf(tags)),
    url('WCOP', tags.license.toUpperCase() === 'CC0' ? CC0_URL : tags.url),
    url('WOAS', tags.url),
    text('TDRC', tags.createdAt.slice(0, 10)),
    userText('sound_id', tags.id),
    ...(tags.tags.length > 0 ? [userText('keywords', tags.tags.join(', '))] : []),
    ...(tags.catId ? [userText('CATID', tags.catId)] : []),
  ];
  const body = Buffer.concat(frames);
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
  writeSyncsafe(header, 6, body.length);
  return Buffer.concat([header, body]);
}

function frame(id: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(10);
  header.write(id, 0, 'latin1');
  writeSyncsafe(header, 4, payload.length);
  return Buffer.concat([header, payload]);
}

function text(id: string, value: string): Buffer {
  return frame(id, Buffer.concat([Buffer.from([UTF8]), Buffer.from(value, 'utf8')]));
}

function userText(description: string, value: string): Buffer {
  return frame('TXXX', Buffer.concat([Buffer.from([UTF8]), Buffer.from(`${description}\0${value}`, 'utf8')]));
}

function comment(value: string): Buffer {
  return frame('COMM', Buffer.concat([Buffer.from([UTF8]), Buffer.from('eng'), Buffer.from(`\0${value}`, 'utf8')]));
}

/** URL frames hold ISO-8859-1 with no encoding byte: the URL is percent-encoded past ASCII. */
function url(id: string, value: string): Buffer {
  return frame(
    id,
    Buffer.from(
      value.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c)),
      'latin1',
    ),
  );
}

function syncsafe(bytes: Buffer, at: number): number {
  return (
    ((bytes[at]! & 0x7f) << 21) |
    ((bytes[at + 1]! & 0x7f) << 14) |
    ((bytes[at + 2]! & 0x7f) << 7) |
    (bytes[at + 3]! & 0x7f)
  );
}

function writeSyncsafe(bytes: Buffer, at: number, value: number): void {
  if (value >= 1 << 28) throw new UnknownHeadError('the tags are too long for ID3v2');
  bytes[at] = (value >> 21) & 0x7f;
  bytes[at + 1] = (value >> 14) & 0x7f;
  bytes[at + 2] = (value >> 7) & 0x7f;
  bytes[at + 3] = value & 0x7f;
}
