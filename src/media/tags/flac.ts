import { need, UnknownHeadError, vendorOf, vorbisComment } from './bytes.ts';
import { commentFields, deliveredPoints, type FileTags } from './file-tags.ts';

const STREAMINFO = 0;
const VORBIS_COMMENT = 4;
const DEFAULT_VENDOR = Buffer.from('Sound Catalog');

/**
 * A FLAC file's metadata blocks with one VORBIS_COMMENT of the sound's (the stored one's vendor
 * string kept) right after STREAMINFO, and the last-block flag on whichever block is last.
 */
export function flacHead(stored: Buffer, tags: FileTags) {
  need(stored, 4);
  if (stored.toString('latin1', 0, 4) !== 'fLaC') throw new UnknownHeadError('not a FLAC file');
  const blocks: Buffer[] = [];
  let vendor = DEFAULT_VENDOR;
  let offset = 4;
  let last = false;
  while (!last) {
    need(stored, offset + 4);
    last = (stored[offset]! & 0x80) !== 0;
    const type = stored[offset]! & 0x7f;
    const end = offset + 4 + stored.readUIntBE(offset + 1, 3);
    need(stored, end);
    if (blocks.length === 0 && type !== STREAMINFO) throw new UnknownHeadError('FLAC without STREAMINFO first');
    if (type === VORBIS_COMMENT) vendor = Buffer.from(vendorOf(stored, offset + 4));
    else blocks.push(Buffer.from(stored.subarray(offset, end)));
    offset = end;
  }
  const info = blocks[0]!.subarray(4);
  const rate = (info[10]! << 12) | (info[11]! << 4) | (info[12]! >> 4);
  const total = (info[13]! & 0x0f) * 2 ** 32 + info.readUInt32BE(14);
  const points = deliveredPoints(tags, rate, total > 0 ? total : null);
  const comment = vorbisComment(vendor, commentFields(tags, points));
  if (comment.length >= 1 << 24) throw new UnknownHeadError('the tags are too long for a FLAC block');
  const commentHeader = Buffer.alloc(4);
  commentHeader.writeUIntBE(comment.length, 1, 3);
  commentHeader[0] = VORBIS_COMMENT;
  const ordered = [blocks[0]!, Buffer.concat([commentHeader, comment]), ...blocks.slice(1)];
  for (const [index, block] of ordered.entries()) {
    block[0] = (block[0]! & 0x7f) | (index === ordered.length - 1 ? 0x80 : 0);
  }
  return { head: Buffer.concat([Buffer.from('fLaC'), ...ordered]), audioStart: offset };
}
