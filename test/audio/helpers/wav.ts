/**
 * A minimal WAV reader and writer for the analysis tests and benchmark only (16/24-bit PCM and
 * 32-bit float). The service's real decoders live elsewhere.
 */
import type { PcmAudio } from '../../../src/audio/types.ts';

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

function decodeSamples(view: DataView, start: number, frames: number, count: number, format: number, bits: number): Float32Array[] {
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

/** Speaker bits for PcmAudio's channel order; 5 channels are 5.0 (no LFE): FL FR FC BL BR. */
function channelMask(count: number): number {
  return count === 5 ? 0x37 : (1 << count) - 1;
}

/** 32-bit float WAV; WAVE_FORMAT_EXTENSIBLE with the standard channel mask above two channels. */
export function encodeWavFloat32(audio: PcmAudio): Uint8Array {
  const count = audio.channels.length;
  const frames = audio.channels[0]?.length ?? 0;
  const extensible = count > 2;
  const fmtSize = extensible ? 40 : 16;
  const dataSize = frames * count * 4;
  const bytes = new Uint8Array(12 + 8 + fmtSize + 8 + dataSize);
  const view = new DataView(bytes.buffer);
  const writeTag = (at: number, text: string) => [...text].forEach((ch, i) => view.setUint8(at + i, ch.charCodeAt(0)));
  writeTag(0, 'RIFF');
  view.setUint32(4, bytes.length - 8, true);
  writeTag(8, 'WAVE');
  writeTag(12, 'fmt ');
  view.setUint32(16, fmtSize, true);
  view.setUint16(20, extensible ? EXTENSIBLE : IEEE_FLOAT, true);
  view.setUint16(22, count, true);
  view.setUint32(24, audio.sampleRate, true);
  view.setUint32(28, audio.sampleRate * count * 4, true);
  view.setUint16(32, count * 4, true);
  view.setUint16(34, 32, true);
  if (extensible) {
    view.setUint16(36, 22, true);
    view.setUint16(38, 32, true);
    view.setUint32(40, channelMask(count), true);
    view.setUint16(44, IEEE_FLOAT, true);
    // KSDATAFORMAT_SUBTYPE GUID tail: 00 00 00 00 10 00 80 00 00 AA 00 38 9B 71
    [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71].forEach((b, i) => view.setUint8(46 + i, b));
  }
  const dataAt = 20 + fmtSize;
  writeTag(dataAt, 'data');
  view.setUint32(dataAt + 4, dataSize, true);
  let at = dataAt + 8;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < count; c++, at += 4) view.setFloat32(at, audio.channels[c]![i]!, true);
  }
  return bytes;
}
