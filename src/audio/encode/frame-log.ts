import { crc16 } from '../decode/crc16.ts';
import { type MpegFrameHeader, parseMpegHeader } from '../decode/mpeg-header.ts';

/**
 * Follows LAME's output frame by frame: what the Info tag needs to say about the audio (frame
 * count, byte count, where each frame starts for the seek TOC, the music CRC, lowest bitrate).
 * LAME's output arrives in arbitrary pieces; a frame split across two is joined here.
 */
export class FrameLog {
  first: MpegFrameHeader | null = null;
  firstHeaderBytes: Uint8Array | null = null;
  frameCount = 0;
  byteCount = 0;
  musicCrc = 0;
  minBitrateKbps = Infinity;
  /** Byte offset of every frame from the first audio frame. */
  readonly frameOffsets: number[] = [];
  private partial: Uint8Array = new Uint8Array(0);

  add(bytes: Uint8Array): void {
    this.musicCrc = crc16(bytes, this.musicCrc);
    let data = this.partial.length ? join(this.partial, bytes) : bytes;
    while (data.length >= 4) {
      const header = parseMpegHeader(data, 0);
      if (!header) throw new Error('MP3 encoder produced a malformed frame');
      if (data.length < header.frameBytes) break;
      if (!this.first) {
        this.first = header;
        this.firstHeaderBytes = data.slice(0, 4);
      }
      this.frameOffsets.push(this.byteCount);
      this.frameCount++;
      this.byteCount += header.frameBytes;
      this.minBitrateKbps = Math.min(this.minBitrateKbps, header.bitrateKbps);
      data = data.subarray(header.frameBytes);
    }
    this.partial = data.slice();
  }

  /** The 100-entry Xing seek table: for each percent of the frames, its byte position in 1/256. */
  seekTable(): Uint8Array {
    const toc = new Uint8Array(100);
    for (let percent = 0; percent < 100; percent++) {
      const frame = Math.floor((percent * this.frameCount) / 100);
      const offset = this.frameOffsets[frame] ?? this.byteCount;
      toc[percent] = Math.min(255, Math.floor((256 * offset) / Math.max(1, this.byteCount)));
    }
    return toc;
  }
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
