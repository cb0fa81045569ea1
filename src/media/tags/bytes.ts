/** The head of the stored file goes on past the bytes given: read more of it. */
export class HeadIncompleteError extends Error {
  constructor(readonly needed: number) {
    super(`the stored head needs at least ${needed} bytes`);
  }
}

/** The stored bytes are not a file of the format named: it is served as stored. */
export class UnknownHeadError extends Error {}

/** Throws HeadIncompleteError unless `bytes` holds `end` bytes. */
export function need(bytes: Buffer, end: number): void {
  if (bytes.length < end) throw new HeadIncompleteError(end);
}

/** A little-endian u32 field. */
export function u32le(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value >>> 0);
  return bytes;
}

/** A Vorbis comment block (FLAC's VORBIS_COMMENT body, Vorbis's and Opus's comment packets after their magic). */
export function vorbisComment(vendor: Buffer, fields: [string, string][]): Buffer {
  const parts = [u32le(vendor.length), vendor, u32le(fields.length)];
  for (const [name, value] of fields) {
    const field = Buffer.from(`${name}=${value}`, 'utf8');
    parts.push(u32le(field.length), field);
  }
  return Buffer.concat(parts);
}

/** The vendor string of a Vorbis comment block starting at `offset` in `bytes`. */
export function vendorOf(bytes: Buffer, offset: number): Buffer {
  need(bytes, offset + 4);
  const length = bytes.readUInt32LE(offset);
  need(bytes, offset + 4 + length);
  return bytes.subarray(offset + 4, offset + 4 + length);
}
