import { crc16 } from '../decode/crc16.ts';
import { LAME_DELAY_OFFSET, LAME_EXTENSION_BYTES } from '../decode/lame-tag.ts';
import { layer3Bitrates, type MpegVersion, parseMpegHeader, sideInfoBytes } from '../decode/mpeg-header.ts';

/**
 * The Xing/Info frame with LAME's extension that starts the MP3, written here because the WASM
 * build of LAME does not write one. Decoders read from it the stream length and the encoder delay
 * and padding to trim; ffmpeg also checks the tag CRC before using the rest. Fields LAME fills
 * from its internals that we do not know (low-pass, ReplayGain, peak, ATH, noise shaping) are 0,
 * the format's "unknown".
 */
export interface InfoTag {
  /** Header bytes of the first audio frame: version, rate, channel mode and flags are copied. */
  audioHeader: Uint8Array;
  tagBitrateKbps: number;
  vbr: { quality: number } | null;
  frameCount: number;
  audioBytes: number;
  toc: Uint8Array;
  delay: number;
  padding: number;
  minBitrateKbps: number;
  /** Rate of the audio given to the encoder before any resampling. */
  sourceSampleRate: number;
  musicCrc: number;
}

const XING_FLAGS_ALL = 0x0f; // frames, bytes, TOC, quality
const XING_FIELDS_BYTES = 4 + 4 + 4 + 4 + 100 + 4;
const ENCODER_VERSION = 'LAME3.100'; // the LAME inside wasm-media-encoders; ffmpeg trusts "LAME*" tags
const VBR_METHOD_CBR = 1;
const VBR_METHOD_MTRH = 4; // LAME's default VBR algorithm (-V)

/** Bytes the tag needs: header, side info, Xing fields and the LAME extension. */
function tagBytesNeeded(version: MpegVersion, channelCount: 1 | 2): number {
  return 4 + sideInfoBytes({ version, channelCount }) + XING_FIELDS_BYTES + LAME_EXTENSION_BYTES;
}

/**
 * The tag frame's bitrate: the stream's own for CBR when the tag fits (then every frame has the
 * same size, as CBR seeking assumes), else the lowest that holds the tag.
 */
export function tagBitrate(
  version: MpegVersion,
  sampleRate: number,
  channelCount: 1 | 2,
  preferredKbps?: number,
): number {
  const fits = (kbps: number) => tagFrameBytes(version, sampleRate, kbps) >= tagBytesNeeded(version, channelCount);
  if (preferredKbps !== undefined && layer3Bitrates(version).includes(preferredKbps) && fits(preferredKbps))
    return preferredKbps;
  const kbps = layer3Bitrates(version).find((b) => b > 0 && fits(b));
  if (kbps === undefined) throw new Error('no MP3 frame size holds the Info tag');
  return kbps;
}

export function tagFrameBytes(version: MpegVersion, sampleRate: number, kbps: number): number {
  return Math.floor(((version === 1 ? 144 : 72) * 1000 * kbps) / sampleRate);
}

export function buildInfoTagFrame(tag: InfoTag): Uint8Array {
  const audio = parseMpegHeader(tag.audioHeader, 0);
  if (!audio) throw new Error('invalid audio frame header');
  const size = tagFrameBytes(audio.version, audio.sampleRate, tag.tagBitrateKbps);
  const frame = new Uint8Array(size);
  const view = new DataView(frame.buffer);
  const bitrateIndex = layer3Bitrates(audio.version).indexOf(tag.tagBitrateKbps);
  frame[0] = 0xff;
  frame[1] = tag.audioHeader[1]! | 0x01; // no CRC after the header
  frame[2] = (bitrateIndex << 4) | (tag.audioHeader[2]! & 0x0c); // same rate, no padding slot, private bit clear
  frame[3] = tag.audioHeader[3]! & 0xcf; // same channel mode and flags, no mode extension
  let offset = 4 + sideInfoBytes(audio); // side info stays zero: the frame holds no audio
  offset = writeAscii(frame, offset, tag.vbr ? 'Xing' : 'Info');
  view.setUint32(offset, XING_FLAGS_ALL);
  view.setUint32(offset + 4, tag.frameCount);
  view.setUint32(offset + 8, size + tag.audioBytes);
  frame.set(tag.toc, offset + 12);
  view.setUint32(offset + 112, tag.vbr ? Math.round(100 - 10 * tag.vbr.quality) : 0);
  writeLameExtension(frame, view, offset + 116, tag, size, audio.channelMode);
  return frame;
}

function writeLameExtension(
  frame: Uint8Array,
  view: DataView,
  start: number,
  tag: InfoTag,
  size: number,
  mode: number,
): void {
  writeAscii(frame, start, ENCODER_VERSION);
  frame[start + 9] = tag.vbr ? VBR_METHOD_MTRH : VBR_METHOD_CBR; // revision 0 in the high nibble
  frame[start + 20] = Math.min(255, tag.vbr ? tag.minBitrateKbps : tag.tagBitrateKbps);
  const delayAndPadding = (tag.delay << 12) | tag.padding;
  frame[start + LAME_DELAY_OFFSET] = delayAndPadding >>> 16;
  view.setUint16(start + LAME_DELAY_OFFSET + 1, delayAndPadding & 0xffff);
  frame[start + 24] = (sourceRateCode(tag.sourceSampleRate) << 6) | (stereoModeCode(mode) << 2);
  // LAME's V0..V9 preset ids
  const preset = tag.vbr && Number.isInteger(tag.vbr.quality) ? 500 - 10 * tag.vbr.quality : 0;
  view.setUint16(start + 26, preset & 0x7ff);
  view.setUint32(start + 28, size + tag.audioBytes);
  view.setUint16(start + 32, tag.musicCrc);
  view.setUint16(start + 34, crc16(frame.subarray(0, start + 34)));
}

function sourceRateCode(rate: number): number {
  if (rate <= 32000) return 0;
  if (rate <= 44100) return 1;
  return rate <= 48000 ? 2 : 3;
}

/** LAME's stereo mode codes: 0 mono, 1 stereo, 2 dual channel, 3 joint stereo. */
function stereoModeCode(channelMode: number): number {
  return [1, 3, 2, 0][channelMode]!;
}

function writeAscii(bytes: Uint8Array, offset: number, text: string): number {
  for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
  return offset + text.length;
}
