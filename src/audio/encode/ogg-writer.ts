import type { FileWriter } from './file-writer.ts';

/** Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, starting at zero (RFC 3533, section 6). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x8000_0000 ? (r << 1) ^ 0x04c1_1db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The CRC of a page whose CRC field is zero (media/tags re-pages header pages with it). */
export function crc(bytes: Uint8Array): number {
  let value = 0;
  for (const byte of bytes) value = ((value << 8) ^ CRC_TABLE[((value >>> 24) ^ byte) & 0xff]!) >>> 0;
  return value;
}

/** A page holds at most 255 lacing values; pages of about a second keep seeking cheap and overhead small. */
const MAX_SEGMENTS = 255;

/**
 * Writes one logical Ogg stream page by page (RFC 3533): packets are gathered into a page until
 * it is full, and each page carries the granule position of the last packet it completes. Only
 * what Ogg Opus needs: no packet spans two pages (Opus packets are far smaller than a page).
 */
export class OggWriter {
  private packets: Uint8Array[] = [];
  private segments = 0;
  private granule = 0n;
  private sequence = 0;

  constructor(
    private readonly out: FileWriter,
    private readonly serial: number,
  ) {}

  /** A packet that must sit alone on its page (the codec's headers), flushed at once. */
  async headerPacket(packet: Uint8Array, first: boolean): Promise<void> {
    this.packets.push(packet);
    this.segments += segmentsOf(packet);
    await this.flush(first ? 0x02 : 0x00);
  }

  /** An audio packet ending at `granule`; pages are written as they fill. */
  async packet(packet: Uint8Array, granule: bigint): Promise<void> {
    if (this.segments + segmentsOf(packet) > MAX_SEGMENTS) await this.flush(0x00);
    this.packets.push(packet);
    this.segments += segmentsOf(packet);
    this.granule = granule;
  }

  /** Writes what is gathered as the last page of the stream. */
  async end(): Promise<void> {
    await this.flush(0x04);
  }

  private async flush(headerType: number): Promise<void> {
    const lacing: number[] = [];
    for (const packet of this.packets) {
      let left = packet.length;
      while (left >= 255) {
        lacing.push(255);
        left -= 255;
      }
      lacing.push(left);
    }
    const bodyBytes = this.packets.reduce((sum, packet) => sum + packet.length, 0);
    const page = new Uint8Array(27 + lacing.length + bodyBytes);
    const view = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53]); // "OggS"
    view.setUint8(5, headerType);
    view.setBigInt64(6, headerType === 0x02 || this.packets.length === 0 ? 0n : this.granule, true);
    view.setUint32(14, this.serial, true);
    view.setUint32(18, this.sequence++, true);
    view.setUint8(26, lacing.length);
    page.set(lacing, 27);
    let offset = 27 + lacing.length;
    for (const packet of this.packets) {
      page.set(packet, offset);
      offset += packet.length;
    }
    view.setUint32(22, crc(page), true);
    await this.out.append(page);
    this.packets = [];
    this.segments = 0;
  }
}

function segmentsOf(packet: Uint8Array): number {
  return Math.floor(packet.length / 255) + 1;
}
