/**
 * WAV for tests: a writer for every encoding the decoder reads, plus the oddities real files have
 * (extensible headers, extra chunks before the data, odd-sized chunks, sizes left open), and a
 * plain reader of 16/24-bit PCM and 32-bit float for the benchmark. The service's real decoders
 * live in src/audio/decode.
 */
import type { PcmAudio } from '../../../src/audio/types.ts';

export interface WavSpec {
  sampleRate: number;
  channels: Float32Array[];
  encoding?: 'pcm' | 'float';
  bits?: 8 | 16 | 24 | 32 | 64;
  extensible?: boolean;
  /** Chunks written between "fmt " and "data", e.g. [['LIST', bytes]]. */
  chunksBeforeData?: Array<[string, Uint8Array]>;
  /** Overrides the data chunk's size field (0 or 0xFFFFFFFF as streaming writers leave it). */
  dataSizeField?: number;
  formatTag?: number;
  /** Speaker bits of an extensible header; the standard layout for the channel count when absent. */
  channelMask?: number;
  channelCountField?: number;
  sampleRateField?: number;
}

export function writeWav(spec: WavSpec): Uint8Array {
  const encoding = spec.encoding ?? 'pcm';
  const bits = spec.bits ?? (encoding === 'float' ? 32 : 16);
  const bytesPerSample = bits / 8;
  const channelCount = spec.channels.length;
  const frames = spec.channels[0]?.length ?? 0;
  const data = new Uint8Array(frames * channelCount * bytesPerSample);
  const view = new DataView(data.buffer);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channelCount; c++) {
      writeSample(view, (i * channelCount + c) * bytesPerSample, spec.channels[c]![i]!, encoding, bits);
    }
  }
  const fmt = formatChunk(spec, encoding, bits, channelCount);
  const chunks: Array<[string, Uint8Array]> = [['fmt ', fmt], ...(spec.chunksBeforeData ?? [])];
  const parts: Uint8Array[] = [];
  for (const [id, body] of chunks)
    parts.push(chunkHeader(id, body.length), body, body.length % 2 ? new Uint8Array(1) : new Uint8Array(0));
  parts.push(chunkHeader('data', spec.dataSizeField ?? data.length), data);
  const bodyLength = 4 + parts.reduce((n, p) => n + p.length, 0);
  return concat([ascii('RIFF'), u32(bodyLength), ascii('WAVE'), ...parts]);
}

function formatChunk(spec: WavSpec, encoding: 'pcm' | 'float', bits: number, channelCount: number): Uint8Array {
  const extensible = spec.extensible ?? false;
  const body = new Uint8Array(extensible ? 40 : 16);
  const view = new DataView(body.buffer);
  const tag = spec.formatTag ?? (encoding === 'pcm' ? 1 : 3);
  const rate = spec.sampleRateField ?? spec.sampleRate;
  const count = spec.channelCountField ?? channelCount;
  view.setUint16(0, extensible ? 0xfffe : tag, true);
  view.setUint16(2, count, true);
  view.setUint32(4, rate, true);
  view.setUint32(8, (rate * count * bits) / 8, true);
  view.setUint16(12, (count * bits) / 8, true);
  view.setUint16(14, bits, true);
  if (extensible) {
    view.setUint16(16, 22, true);
    view.setUint16(18, bits, true);
    view.setUint32(20, spec.channelMask ?? standardMask(count), true);
    view.setUint16(24, tag, true);
    body.set([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71], 26);
  }
  return body;
}

function writeSample(view: DataView, offset: number, value: number, encoding: 'pcm' | 'float', bits: number): void {
  if (encoding === 'float') {
    if (bits === 64) view.setFloat64(offset, value, true);
    else view.setFloat32(offset, value, true);
    return;
  }
  const full = 2 ** (bits - 1);
  const integer = Math.max(-full, Math.min(full - 1, Math.round(value * full)));
  if (bits === 8) view.setUint8(offset, integer + 128);
  else if (bits === 16) view.setInt16(offset, integer, true);
  else if (bits === 24) {
    view.setUint16(offset, integer & 0xffff, true);
    view.setInt8(offset + 2, integer >> 16);
  } else view.setInt32(offset, integer, true);
}

export function chunkHeader(id: string, size: number): Uint8Array {
  return concat([ascii(id), u32(size)]);
}

export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

export function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value >>> 0, true);
  return bytes;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Speaker bits for PcmAudio's channel order; 5 channels are 5.0 (no LFE): FL FR FC BL BR. */
function standardMask(count: number): number {
  return count === 5 ? 0x37 : (1 << count) - 1;
}

/** 32-bit float WAV, extensible (with the standard channel mask) above two channels. */
export function encodeWavFloat32(audio: PcmAudio): Uint8Array {
  return writeWav({ ...audio, encoding: 'float', extensible: audio.channels.length > 2 });
}

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;

export function parseWav(bytes: Uint8Array): PcmAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let format = 0;
  let channelCount = 0;
  let sampleRate = 0;
  let bits = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (tag(at) === 'fmt ') {
      format = view.getUint16(body, true);
      channelCount = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
      if (format === EXTENSIBLE) format = view.getUint16(body + 24, true);
    } else if (tag(at) === 'data') {
      const frames = Math.floor(Math.min(size, bytes.length - body) / ((bits / 8) * channelCount));
      return { sampleRate, channels: decodeSamples(view, body, frames, channelCount, format, bits) };
    }
    at = body + size + (size & 1);
  }
  throw new Error('WAV file has no data chunk');
}

function decodeSamples(
  view: DataView,
  start: number,
  frames: number,
  count: number,
  format: number,
  bits: number,
): Float32Array[] {
  const channels = Array.from({ length: count }, () => new Float32Array(frames));
  const width = bits / 8;
  const bytes = new Uint8Array(view.buffer, view.byteOffset + start, frames * count * width);
  if (format === IEEE_FLOAT && bits === 32) {
    // Copy to an aligned buffer so a typed view can read it (WAV data is little-endian, like x86 and ARM).
    const samples = new Float32Array(bytes.slice().buffer);
    deinterleave(samples, channels, 1);
  } else if (format === PCM && bits === 16) {
    deinterleave(new Int16Array(bytes.slice().buffer), channels, 1 / 32768);
  } else if (format === PCM && bits === 24) {
    for (let c = 0; c < count; c++) {
      const channel = channels[c]!;
      for (let i = 0, at = c * 3; i < frames; i++, at += 3 * count) {
        channel[i] = (bytes[at]! | (bytes[at + 1]! << 8) | (((bytes[at + 2]! << 24) >> 24) << 16)) / 8388608;
      }
    }
  } else {
    throw new Error(`unsupported WAV format ${format} with ${bits} bits`);
  }
  return channels;
}

function deinterleave(samples: Float32Array | Int16Array, channels: Float32Array[], scale: number): void {
  const count = channels.length;
  for (let c = 0; c < count; c++) {
    const channel = channels[c]!;
    for (let i = 0, at = c; i < channel.length; i++, at += count) channel[i] = samples[at]! * scale;
  }
}
