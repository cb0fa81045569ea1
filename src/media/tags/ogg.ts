import { crc } from '../../audio/encode/ogg-writer.ts';
import { need, UnknownHeadError, vendorOf, vorbisComment } from './bytes.ts';
import { commentFields, deliveredPoints, type FileTags } from './file-tags.ts';

const OPUS_RATE = 48_000;
const MAX_LACING = 255;

interface Page {
  start: number;
  end: number;
  lacing: number[];
  body: number;
}

/**
 * An Ogg Vorbis or Opus file's header pages with the comment packet replaced (the vendor string
 * kept). The new comment and the packets after it (Vorbis's setup) are laid out over exactly as
 * many pages as the stored file gave them, so every later page keeps its sequence number and CRC
 * and the rest of the file is the stored bytes unchanged. Tags too long for those pages (255
 * segments of 255 bytes each) lose their longer fields first.
 */
export function oggHead(stored: Buffer, tags: FileTags) {
  const pages: Page[] = [];
  const packets: Buffer[] = [];
  let partial: Buffer[] = [];
  let wanted = 2;
  let offset = 0;
  while (packets.length < wanted) {
    need(stored, offset + 27);
    if (stored.toString('latin1', offset, offset + 4) !== 'OggS') throw new UnknownHeadError('not an Ogg file');
    const count = stored[offset + 26]!;
    need(stored, offset + 27 + count);
    const lacing = [...stored.subarray(offset + 27, offset + 27 + count)];
    const body = offset + 27 + count;
    const end = body + lacing.reduce((sum, value) => sum + value, 0);
    need(stored, end);
    pages.push({ start: offset, end, lacing, body });
    let at = body;
    for (const value of lacing) {
      partial.push(stored.subarray(at, at + value));
      at += value;
      if (value < MAX_LACING) {
        if (packets.length === wanted) throw new UnknownHeadError('audio shares a page with the Ogg headers');
        packets.push(Buffer.concat(partial));
        partial = [];
        if (packets.length === 1) wanted = codecOf(packets[0]!) === 'vorbis' ? 3 : 2;
      }
    }
    offset = end;
  }
  if (partial.length > 0 || pages.length < 2) throw new UnknownHeadError('Ogg headers that do not end a page');
  const codec = codecOf(packets[0]!);
  const rate = codec === 'opus' ? OPUS_RATE : packets[0]!.readUInt32LE(12);
  const points = deliveredPoints(tags, rate, null);
  const vendor = vendorOf(packets[1]!, codec === 'opus' ? 8 : 7);
  const fields = commentFields(tags, points);
  const serial = stored.readUInt32LE(14);
  // Fields dropped, longest first, until the pages hold them.
  for (;;) {
    const comment = commentPacket(codec, vendor, fields);
    const rest = [comment, ...packets.slice(2)];
    const laid = layOut(rest, pages.length - 1, serial, stored.readUInt32LE(pages[1]!.start + 18));
    if (laid) return { head: Buffer.concat([stored.subarray(0, pages[0]!.end), ...laid]), audioStart: offset };
    const longest = fields.reduce(
      (best, field, index) => (field[1].length > fields[best]![1].length ? index : best),
      0,
    );
    if (fields.length === 0 || fields[longest]![0] === 'TITLE')
      throw new UnknownHeadError('the Ogg headers cannot hold the tags');
    fields.splice(longest, 1);
  }
}

function codecOf(first: Buffer): 'vorbis' | 'opus' {
  if (first.toString('latin1', 0, 8) === 'OpusHead') return 'opus';
  if (first[0] === 1 && first.toString('latin1', 1, 7) === 'vorbis' && first.length >= 16) return 'vorbis';
  throw new UnknownHeadError('an Ogg stream that is neither Vorbis nor Opus');
}

function commentPacket(codec: 'vorbis' | 'opus', vendor: Buffer, fields: [string, string][]): Buffer {
  const body = vorbisComment(vendor, fields);
  // Vorbis's comment header ends with a framing bit (Vorbis I, 5.2.1); OpusTags has none (RFC 7845, 5.2).
  return codec === 'opus'
    ? Buffer.concat([Buffer.from('OpusTags'), body])
    : Buffer.concat([Buffer.from([3]), Buffer.from('vorbis'), body, Buffer.from([1])]);
}

/** The packets over exactly `count` pages numbered from `firstSequence`, or null when they do not fit. */
function layOut(packets: Buffer[], count: number, serial: number, firstSequence: number): Buffer[] | null {
  const lacing: number[] = [];
  for (const packet of packets) {
    for (let left = packet.length; ; left -= MAX_LACING) {
      lacing.push(Math.min(left, MAX_LACING));
      if (left < MAX_LACING) break;
    }
  }
  if (lacing.length > count * MAX_LACING || lacing.length < count) return null;
  const data = Buffer.concat(packets);
  const pages: Buffer[] = [];
  let segment = 0;
  let at = 0;
  for (let index = 0; index < count; index++) {
    // As even as they go: every page holds at least one segment and at most 255.
    const take = Math.floor(((index + 1) * lacing.length) / count) - Math.floor((index * lacing.length) / count);
    const values = lacing.slice(segment, segment + take);
    const bytes = values.reduce((sum, value) => sum + value, 0);
    const page = Buffer.alloc(27 + values.length + bytes);
    page.write('OggS', 0, 'latin1');
    const continued = segment > 0 && lacing[segment - 1] === MAX_LACING;
    page[5] = continued ? 0x01 : 0x00;
    // A page on which no packet ends has no granule position (-1); header packets' is 0.
    const endsPacket = values.some((value) => value < MAX_LACING);
    page.writeBigInt64LE(endsPacket ? 0n : -1n, 6);
    page.writeUInt32LE(serial, 14);
    page.writeUInt32LE(firstSequence + index, 18);
    page[26] = values.length;
    page.set(values, 27);
    data.copy(page, 27 + values.length, at, at + bytes);
    page.writeUInt32LE(crc(page), 22);
    pages.push(page);
    segment += take;
    at += bytes;
  }
  return pages;
}
