/**
 * The bytes after a leading ID3v2 tag (all of them when there is none), read by the tests on
 * their own: what a delivered MP3 holds of its stored file (the service writes its tags in front).
 */
export function withoutId3<T extends Uint8Array>(bytes: T): T {
  if (bytes.length < 10 || String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!) !== 'ID3') return bytes;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return bytes.subarray(10 + size + (bytes[5]! & 0x10 ? 10 : 0)) as T;
}
