/** Text inside tags comes in several encodings; these decode it without ever throwing. */

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Lenient = new TextDecoder('utf-8');
const latin1 = new TextDecoder('latin1');
const utf16le = new TextDecoder('utf-16le');

export function decodeLatin1(bytes: Uint8Array): string {
  return latin1.decode(bytes);
}

export function decodeUtf8(bytes: Uint8Array): string {
  return utf8Lenient.decode(bytes);
}

/** UTF-16 with an optional byte order mark (little-endian without one, as Windows writes it). */
export function decodeUtf16(bytes: Uint8Array, bigEndianByDefault = false): string {
  let bigEndian = bigEndianByDefault;
  let body = bytes;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) [bigEndian, body] = [true, bytes.subarray(2)];
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [bigEndian, body] = [false, bytes.subarray(2)];
  if (!bigEndian) return utf16le.decode(body);
  const swapped = new Uint8Array(body.length - (body.length % 2));
  for (let i = 0; i + 1 < body.length; i += 2) [swapped[i], swapped[i + 1]] = [body[i + 1]!, body[i]!];
  return utf16le.decode(swapped);
}

/**
 * Text whose encoding nobody wrote down (RIFF INFO, bext, AIFF chunks): the specs say ASCII, real
 * files hold UTF-8 or Latin-1. Valid UTF-8 is taken as such, anything else as Latin-1.
 */
export function decodeUnlabelled(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  const text = end >= 0 ? bytes.subarray(0, end) : bytes;
  try {
    return utf8.decode(text);
  } catch {
    return latin1.decode(text);
  }
}

/** The same bounds a sidecar has (metadata.ts); longer text from a file is cut, not refused. */
export const FIELD_LIMITS = { name: 200, description: 2000, tag: 100, tags: 100 } as const;

/** Trimmed text without control characters (a tag can hold anything), or undefined when empty. */
export function cleanText(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  const text = value
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return text.length > 0 ? text.slice(0, max) : undefined;
}
