/**
 * ID3v2 tags prefix many MP3 (and some FLAC) files. Their length is in the header, so a reader can
 * skip them without looking inside: cover art can be megabytes.
 */
export const ID3V2_HEADER_BYTES = 10;

/** Total length of the ID3v2 tag at the start of `head`, or 0 when there is none. */
export function id3v2TagLength(head: Uint8Array): number {
  if (head.length < ID3V2_HEADER_BYTES) return 0;
  if (head[0] !== 0x49 || head[1] !== 0x44 || head[2] !== 0x33) return 0; // "ID3"
  if (head[3] === 0xff || head[4] === 0xff) return 0;
  let size = 0;
  for (let i = 6; i < 10; i++) {
    const byte = head[i]!;
    if (byte & 0x80) return 0; // sizes are "syncsafe": 7 bits per byte
    size = size * 128 + byte;
  }
  const hasFooter = (head[5]! & 0x10) !== 0;
  return ID3V2_HEADER_BYTES + size + (hasFooter ? ID3V2_HEADER_BYTES : 0);
}
