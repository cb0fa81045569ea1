import type { ByteSource } from './byte-source.ts';
import { DecodeError } from './decode-error.ts';

/** How an AIFF or AIFF-C file's samples are stored, from its COMM chunk. */
export interface AiffLayout {
  channelCount: number;
  sampleRate: number;
  /** Signed integers (left-justified), unsigned 8-bit ('raw '), or IEEE floats (AIFF-C 'fl32', 'fl64'). */
  encoding: 'pcm' | 'unsigned' | 'float';
  /** Bytes one sample of one channel occupies (sample size rounded up to whole bytes; values are left-justified). */
  bytesPerSample: number;
  /** AIFF-C 'sowt' stores little-endian samples; everything else we read is big-endian. */
  littleEndian: boolean;
  /** Sample frames the COMM chunk declares. */
  frames: number;
}

const MAX_CHANNELS = 256;
const MAX_SAMPLE_RATE = 1_536_000;
const MAX_COMM_BYTES = 4096;
/**
 * AIFF-C compression types that hold uncompressed samples: NONE and twos (big-endian integers),
 * sowt (little-endian), in24/in32 (big-endian integers of that size), raw (unsigned 8-bit), and
 * fl32/fl64 (big-endian IEEE floats, as Apple's tools and ffmpeg write float AIFF).
 */
const UNCOMPRESSED: Record<string, { encoding: AiffLayout['encoding']; littleEndian: boolean; bits?: number }> = {
  NONE: { encoding: 'pcm', littleEndian: false },
  twos: { encoding: 'pcm', littleEndian: false },
  sowt: { encoding: 'pcm', littleEndian: true },
  in24: { encoding: 'pcm', littleEndian: false, bits: 24 },
  in32: { encoding: 'pcm', littleEndian: false, bits: 32 },
  'raw ': { encoding: 'unsigned', littleEndian: false, bits: 8 },
  fl32: { encoding: 'float', littleEndian: false, bits: 32 },
  FL32: { encoding: 'float', littleEndian: false, bits: 32 },
  fl64: { encoding: 'float', littleEndian: false, bits: 64 },
  FL64: { encoding: 'float', littleEndian: false, bits: 64 },
};
/** Other AIFF-C compression types, by the name a person knows them by. */
const COMPRESSION_NAMES: Record<string, string> = {
  ulaw: 'µ-law',
  ULAW: 'µ-law',
  alaw: 'A-law',
  ALAW: 'A-law',
  ima4: 'IMA ADPCM',
  'GSM ': 'GSM',
  MAC3: 'MACE 3:1',
  MAC6: 'MACE 6:1',
  Qclp: 'QUALCOMM PureVoice',
  QDMC: 'QDesign Music',
  QDM2: 'QDesign Music 2',
};

/**
 * Walks a FORM/AIFF or FORM/AIFC header up to the first sample byte, skipping every chunk it does
 * not need (NAME, ANNO, MARK, ID3, ...) without holding it. The COMM chunk must come before the
 * sound data, as every writer does: the stream cannot go back for it.
 */
export async function readAiffHeader(source: ByteSource): Promise<AiffLayout> {
  const form = await source.read(12);
  if (form.length < 12) throw new DecodeError('truncated AIFF header');
  const isAifc = ascii(form, 8, 4) === 'AIFC';
  let layout: AiffLayout | null = null;
  for (;;) {
    const header = await source.read(8);
    if (header.length < 8) throw new DecodeError(layout ? 'AIFF has no SSND chunk' : 'truncated AIFF header');
    const id = ascii(header, 0, 4);
    const size = view(header).getUint32(4);
    if (id === 'SSND') {
      if (!layout) throw new DecodeError('AIFF sound data comes before its COMM chunk');
      const ssnd = await source.read(8);
      if (ssnd.length < 8) throw new DecodeError('truncated AIFF header');
      const offset = view(ssnd).getUint32(0);
      if ((await source.skip(offset)) < offset) throw new DecodeError('truncated AIFF header');
      // The COMM frame count is what the file promises; a sound chunk that holds fewer frames (and
      // is not a streaming writer's open size of 0) ends the audio where it ends.
      const dataBytes = size - 8 - offset;
      const frameBytes = layout.channelCount * layout.bytesPerSample;
      if (size !== 0 && dataBytes >= 0)
        return { ...layout, frames: Math.min(layout.frames, Math.floor(dataBytes / frameBytes)) };
      return layout;
    }
    if (id === 'COMM') {
      const body = await source.read(Math.min(size, MAX_COMM_BYTES));
      if (body.length < Math.min(size, MAX_COMM_BYTES)) throw new DecodeError('truncated AIFF header');
      layout = readComm(body, isAifc);
      await skipRest(source, size, body.length);
    } else {
      await skipRest(source, size, 0);
    }
  }
}

function readComm(body: Uint8Array, isAifc: boolean): AiffLayout {
  if (body.length < (isAifc ? 22 : 18)) throw new DecodeError('truncated AIFF COMM chunk');
  const data = view(body);
  const channelCount = data.getInt16(0);
  const frames = data.getUint32(2);
  const sampleSize = data.getInt16(6);
  const sampleRate = Math.round(readExtended(body.subarray(8, 18)));
  if (channelCount <= 0) throw new DecodeError('AIFF has zero channels');
  if (channelCount > MAX_CHANNELS) throw new DecodeError(`unsupported AIFF: ${channelCount} channels`);
  if (!(sampleRate > 0)) throw new DecodeError('AIFF has a zero sample rate');
  if (sampleRate > MAX_SAMPLE_RATE) throw new DecodeError(`unsupported AIFF sample rate: ${sampleRate} Hz`);
  const compression = isAifc ? ascii(body, 18, 4) : 'NONE';
  const stored = UNCOMPRESSED[compression];
  if (!stored) {
    const name = COMPRESSION_NAMES[compression];
    throw new DecodeError(`unsupported AIFF-C compression: '${printable(compression)}'${name ? ` (${name})` : ''}`);
  }
  // The types that fix the sample size win over COMM's field (some writers leave it at 16 or 0).
  const bits = stored.bits ?? sampleSize;
  if (stored.encoding !== 'float' && (bits < 1 || bits > 32))
    throw new DecodeError(`unsupported AIFF: ${sampleSize}-bit samples`);
  return {
    channelCount,
    sampleRate,
    encoding: stored.encoding,
    bytesPerSample: Math.ceil(bits / 8),
    littleEndian: stored.littleEndian,
    frames,
  };
}

/**
 * The 80-bit IEEE 754 extended float AIFF stores its sample rate in: sign and 15-bit exponent
 * (bias 16383), then a 64-bit mantissa with an explicit integer bit.
 */
export function readExtended(bytes: Uint8Array): number {
  const data = view(bytes);
  const sign = bytes[0]! & 0x80 ? -1 : 1;
  const exponent = data.getUint16(0) & 0x7fff;
  const mantissa = data.getUint32(2) * 2 ** 32 + data.getUint32(6);
  if (exponent === 0x7fff) return NaN;
  if (exponent === 0 && mantissa === 0) return 0;
  return sign * mantissa * 2 ** (exponent - 16383 - 63);
}

async function skipRest(source: ByteSource, size: number, alreadyRead: number): Promise<void> {
  // AIFF chunks are always padded to an even length, and the pad byte is not counted in the size.
  const rest = size - alreadyRead + (size % 2);
  if ((await source.skip(rest)) < rest) throw new DecodeError('truncated AIFF header');
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}
