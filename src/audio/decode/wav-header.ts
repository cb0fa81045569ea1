import type { ByteSource } from './byte-source.ts';
import { DecodeError } from './decode-error.ts';
import { readWavFormat, type WavFormat } from './wav-format.ts';

export interface WavLayout extends WavFormat {
  /** Bytes of sample data the header declares, or null when the writer left it open: read to the end. */
  dataBytes: number | null;
}

/** Sizes a streaming writer leaves in place of the real data length. */
const OPEN_SIZES = new Set([0, 0xffffffff]);
const MAX_FORMAT_CHUNK_BYTES = 4096;

/**
 * Walks a RIFF/WAVE (or RF64/BW64) header up to the start of the sample data, skipping every
 * chunk it does not need (LIST, fact, bext, JUNK, ...) without holding it. Leaves `source` at the
 * first sample byte. The format chunk must come before the data, as every writer does.
 */
export async function readWavHeader(source: ByteSource): Promise<WavLayout> {
  const riff = await source.read(12);
  const container = ascii(riff, 0, 4);
  if (riff.length < 12 || ascii(riff, 8, 4) !== 'WAVE') throw new DecodeError('truncated WAV header');
  let format: WavFormat | null = null;
  let ds64DataBytes: number | null = null;
  for (;;) {
    const chunkHeader = await source.read(8);
    if (chunkHeader.length < 8) throw new DecodeError(format ? 'WAV has no data chunk' : 'truncated WAV header');
    const id = ascii(chunkHeader, 0, 4);
    const size = new DataView(chunkHeader.buffer, chunkHeader.byteOffset, 8).getUint32(4, true);
    if (id === 'data') {
      if (!format) throw new DecodeError('WAV data comes before its format chunk');
      const isRf64 = container !== 'RIFF' && size === 0xffffffff && ds64DataBytes !== null;
      return { ...format, dataBytes: isRf64 ? ds64DataBytes : OPEN_SIZES.has(size) ? null : size };
    }
    if (id === 'fmt ') {
      const body = await source.read(Math.min(size, MAX_FORMAT_CHUNK_BYTES));
      if (body.length < Math.min(size, MAX_FORMAT_CHUNK_BYTES)) throw new DecodeError('truncated WAV header');
      format = readWavFormat(body);
      await skipChunkRest(source, size, body.length);
    } else if (id === 'ds64') {
      const body = await source.read(Math.min(size, 28));
      if (body.length >= 16) ds64DataBytes = readUint64(body, 8);
      await skipChunkRest(source, size, body.length);
    } else {
      await skipChunkRest(source, size, 0);
    }
  }
}

async function skipChunkRest(source: ByteSource, size: number, alreadyRead: number): Promise<void> {
  const rest = size - alreadyRead;
  if ((await source.skip(rest)) < rest) throw new DecodeError('truncated WAV header');
  // Chunks are padded to an even length; some writers forget, so only a zero byte is padding.
  if (size % 2 === 1) {
    const pad = await source.peek(1);
    if (pad[0] === 0) await source.skip(1);
  }
}

function readUint64(bytes: Uint8Array, offset: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(offset + 4, true) * 2 ** 32 + view.getUint32(offset, true);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
