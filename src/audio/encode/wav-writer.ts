import type { PcmAudio } from '../types.ts';
import { type FileWriter, toInteger } from './file-writer.ts';
import type { BitDepth } from './output-format.ts';

const HEADER_BYTES = 44;
/** A RIFF chunk's size is 32 bits: a WAV file holds at most this many bytes of samples. */
const MAX_DATA_BYTES = 0xffff_ffff - (HEADER_BYTES - 8);

/**
 * Writes a PCM WAV file (16- or 24-bit little-endian integers, interleaved) chunk by chunk. The
 * header's two sizes are known only at the end: it is written with zeros first and patched by
 * `finish`. Plain WAVE_FORMAT_PCM, which every game engine and editor reads at either depth.
 */
export class WavWriter {
  private dataBytes = 0;
  private readonly bytesPerSample: number;

  constructor(
    private readonly out: FileWriter,
    private readonly sampleRate: number,
    private readonly channels: number,
    private readonly bitDepth: BitDepth,
  ) {
    this.bytesPerSample = bitDepth / 8;
  }

  async start(): Promise<void> {
    await this.out.append(this.header());
  }

  async push(chunk: PcmAudio): Promise<void> {
    const length = chunk.channels[0]?.length ?? 0;
    const bytes = new Uint8Array(length * this.channels * this.bytesPerSample);
    const view = new DataView(bytes.buffer);
    let offset = 0;
    for (let i = 0; i < length; i++) {
      for (let c = 0; c < this.channels; c++) {
        const value = toInteger(chunk.channels[c]![i]!, this.bitDepth);
        if (this.bitDepth === 16) view.setInt16(offset, value, true);
        else {
          view.setUint16(offset, value & 0xffff, true);
          view.setInt8(offset + 2, value >> 16);
        }
        offset += this.bytesPerSample;
      }
    }
    if (this.dataBytes + bytes.length > MAX_DATA_BYTES)
      throw new RangeError('the rendition is too long for a WAV file (4 GiB)');
    this.dataBytes += bytes.length;
    await this.out.append(bytes);
  }

  async finish(): Promise<void> {
    // RIFF chunks are padded to an even length.
    if (this.dataBytes % 2 === 1) await this.out.append(new Uint8Array(1));
    await this.out.writeAt(this.header(), 0);
  }

  private header(): Uint8Array {
    const bytes = new Uint8Array(HEADER_BYTES);
    const view = new DataView(bytes.buffer);
    const ascii = (offset: number, text: string) => {
      for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
    };
    const blockAlign = this.channels * this.bytesPerSample;
    ascii(0, 'RIFF');
    view.setUint32(4, HEADER_BYTES - 8 + this.dataBytes + (this.dataBytes % 2), true);
    ascii(8, 'WAVE');
    ascii(12, 'fmt ');
    view.setUint32(16, 16, true);
    view.setUint16(20, 1, true); // WAVE_FORMAT_PCM
    view.setUint16(22, this.channels, true);
    view.setUint32(24, this.sampleRate, true);
    view.setUint32(28, this.sampleRate * blockAlign, true);
    view.setUint16(32, blockAlign, true);
    view.setUint16(34, this.bitDepth, true);
    ascii(36, 'data');
    view.setUint32(40, this.dataBytes, true);
    return bytes;
  }
}
