import { type ByteSource, concatAll } from './byte-source.ts';
import { MpegFrameScanner } from './mpeg-frame-scanner.ts';
import type { MpegFrameHeader } from './mpeg-header.ts';

export interface MpegFrame {
  bytes: Uint8Array;
  header: MpegFrameHeader;
}

const READ_BYTES = 256 * 1024;

/** Pulls whole MPEG frames out of a byte source, holding only the bytes of the frame being found. */
export class MpegFrameReader {
  private readonly scanner = new MpegFrameScanner();
  private buffer: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private atEnd = false;

  constructor(private readonly source: ByteSource) {}

  /** The first frame's header, which fixes version, layer and rate for the rest of the stream. */
  get stream(): MpegFrameHeader | null {
    return this.scanner.stream;
  }

  async next(): Promise<MpegFrame | null> {
    for (;;) {
      const found = this.scanner.next(this.buffer, this.offset, this.atEnd);
      if (found.kind === 'end') return null;
      if (found.kind === 'frame') {
        const end = found.start + found.header.frameBytes;
        this.offset = end;
        return { bytes: this.buffer.subarray(found.start, end), header: found.header };
      }
      const more = await this.source.readSome(READ_BYTES);
      if (more === null) this.atEnd = true;
      const kept = this.buffer.subarray(found.keepFrom);
      this.buffer = more === null ? kept : kept.length === 0 ? more : concatAll([kept, more]);
      this.offset = 0;
    }
  }
}
