import { concatAll } from '../../audio/decode/byte-source.ts';
import type { RawTags } from './fields.ts';
import { MAX_CHUNKS, MAX_TAG_BYTES, TagError, type TagFile } from './tag-file.ts';
import { readVorbisComment } from './vorbis.ts';

/**
 * The comments of an Ogg stream: its second packet, put back together from the pages of the
 * first logical stream (a packet may span pages). Vorbis ("\x03vorbis"), FLAC in Ogg (a metadata
 * block of type 4) and Opus ("OpusTags") all carry the same comment block.
 */
export async function readOggComments(file: TagFile): Promise<RawTags | null> {
  const packets: Uint8Array[] = [];
  let current: Uint8Array[] = [];
  let serial: number | null = null;
  let pos = 0;
  let bytes = 0;
  for (let pages = 0; pages < MAX_CHUNKS && packets.length < 2; pages++) {
    const header = await file.read(pos, 27);
    if (header.length < 27 || String.fromCharCode(...header.subarray(0, 4)) !== 'OggS') break;
    const view = new DataView(header.buffer, header.byteOffset, 27);
    const pageSerial = view.getUint32(14, true);
    const lacing = await file.read(pos + 27, header[26]!);
    const bodyStart = pos + 27 + lacing.length;
    const bodyLength = lacing.reduce((sum, value) => sum + value, 0);
    pos = bodyStart + bodyLength;
    serial ??= pageSerial;
    if (pageSerial !== serial) continue;
    bytes += bodyLength;
    if (bytes > MAX_TAG_BYTES) throw new TagError('Ogg comment packet is larger than 1 MiB');
    const body = await file.read(bodyStart, bodyLength);
    let offset = 0;
    for (const value of lacing) {
      current.push(body.subarray(offset, offset + value));
      offset += value;
      if (value < 255) {
        packets.push(concatAll(current));
        current = [];
      }
    }
  }
  const packet = packets[1];
  if (!packet) return null;
  if (startsWith(packet, '\x03vorbis')) return readVorbisComment(packet.subarray(7));
  if (startsWith(packet, 'OpusTags')) return readVorbisComment(packet.subarray(8));
  if ((packet[0]! & 0x7f) === 4 && startsWith(packets[0]!, '\x7fFLAC')) return readVorbisComment(packet.subarray(4));
  return null;
}

function startsWith(bytes: Uint8Array, text: string): boolean {
  return bytes.length >= text.length && [...text].every((ch, i) => bytes[i] === ch.charCodeAt(0));
}
