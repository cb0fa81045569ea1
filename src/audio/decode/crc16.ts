/**
 * CRC-16 with the reflected polynomial 0xA001 (0x8005) and initial value 0 ("CRC-16/ARC"). The
 * LAME tag stores two of them: over the audio ("music CRC") and over the tag frame itself.
 * ffmpeg validates the latter before it trusts the rest of the tag's metadata.
 */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let crc = n;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
    table[n] = crc;
  }
  return table;
})();

/** Continues `crc` over `bytes`; start from 0. */
export function crc16(bytes: Uint8Array, crc = 0): number {
  let value = crc;
  for (let i = 0; i < bytes.length; i++) value = (value >>> 8) ^ TABLE[(value ^ bytes[i]!) & 0xff]!;
  return value;
}
