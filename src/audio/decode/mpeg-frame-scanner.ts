import { type MpegFrameHeader, parseMpegHeader, sameStream } from './mpeg-header.ts';

export type ScanResult =
  | { kind: 'frame'; start: number; header: MpegFrameHeader }
  /** Nothing decidable before `keepFrom`: call again with more bytes appended from there. */
  | { kind: 'need-more'; keepFrom: number }
  | { kind: 'end' };

/**
 * Finds MPEG audio frames in a byte stream that may hold junk: tags at either end, broken bytes
 * in the middle. The first frame fixes the stream (version, layer, rate). While frames follow each
 * other a header is trusted; after junk, a candidate counts only when another frame of the same
 * stream follows it (or the data ends exactly with it), so stray 0xFF bytes in an ID3v1/APE tag
 * or cover art do not become audio.
 */
export class MpegFrameScanner {
  stream: MpegFrameHeader | null = null;
  private inSync = false;

  next(bytes: Uint8Array, from: number, atEnd: boolean): ScanResult {
    for (let start = from; start + 4 <= bytes.length; start++) {
      if (bytes[start] !== 0xff) {
        this.inSync = false;
        continue;
      }
      const header = parseMpegHeader(bytes, start);
      if (!header || (this.stream && !sameStream(this.stream, header))) {
        this.inSync = false;
        continue;
      }
      const end = start + header.frameBytes;
      if (end > bytes.length) {
        if (!atEnd) return { kind: 'need-more', keepFrom: start };
        // A frame cut short by the end of the file: mpg123 and ffmpeg drop it too.
        this.inSync = false;
        continue;
      }
      if (!this.inSync) {
        const confirmed = this.isConfirmed(bytes, end, header, atEnd);
        if (confirmed === null) return { kind: 'need-more', keepFrom: start };
        if (!confirmed) continue;
      }
      this.stream ??= header;
      this.inSync = true;
      return { kind: 'frame', start, header };
    }
    if (atEnd) return { kind: 'end' };
    return { kind: 'need-more', keepFrom: Math.max(from, bytes.length - 3) };
  }

  /** Whether another frame of the same stream starts at `end`; null when the bytes are not there yet. */
  private isConfirmed(bytes: Uint8Array, end: number, header: MpegFrameHeader, atEnd: boolean): boolean | null {
    if (end === bytes.length) return atEnd ? true : null;
    if (end + 4 > bytes.length) return atEnd ? false : null;
    const following = parseMpegHeader(bytes, end);
    return following !== null && sameStream(header, following);
  }
}
