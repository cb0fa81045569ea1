import type { GaplessInfo } from '../types.ts';
import { crc16 } from './crc16.ts';
import { type MpegFrameHeader, sideInfoBytes } from './mpeg-header.ts';

/**
 * The tag an encoder writes into an MP3's first frame: Xing ("Xing" for VBR, "Info" for CBR) with
 * LAME's extension, or Fraunhofer's VBRI. Layout: Xing flags, frames, bytes, a 100-byte seek TOC
 * and a quality word, each present per flag; then LAME's 36 bytes (encoder string, ..., delay and
 * padding 21 bytes into it, ..., music length, music CRC, tag CRC).
 */
export interface VbrTag {
  kind: 'xing' | 'info' | 'vbri';
  /** Audio frames after the tag frame. */
  frameCount: number | null;
  /** Bytes of the whole stream, tag frame included. */
  byteCount: number | null;
  toc: Uint8Array | null;
  quality: number | null;
  lame: LameExtension | null;
}

export interface LameExtension {
  /** The 9-byte short encoder version, e.g. "LAME3.100" or "Lavc59.37". */
  encoder: string;
  delay: number;
  padding: number;
  musicLength: number;
  musicCrc: number;
  /** Whether the CRC over the tag frame up to this field matches: a check that the tag is intact. */
  tagCrcValid: boolean;
}

const XING_FLAG_FRAMES = 1;
const XING_FLAG_BYTES = 2;
const XING_FLAG_TOC = 4;
const XING_FLAG_QUALITY = 8;
export const LAME_EXTENSION_BYTES = 36;
/** Offset of the 24-bit delay/padding word inside the LAME extension. */
export const LAME_DELAY_OFFSET = 21;

export function readVbrTag(frame: Uint8Array, header: MpegFrameHeader): VbrTag | null {
  if (header.layer !== 3) return null;
  return readXing(frame, 4 + sideInfoBytes(header)) ?? readVbri(frame);
}

function readXing(frame: Uint8Array, start: number): VbrTag | null {
  if (start + 8 > frame.length) return null;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const magic = ascii(frame, start, 4);
  if (magic !== 'Xing' && magic !== 'Info') return null;
  const flags = view.getUint32(start + 4);
  let offset = start + 8;
  /** The next field when its flag is set and it fits in the frame: its offset; null otherwise. */
  const nextField = (flag: number, bytes: number): number | null => {
    if (!(flags & flag) || offset + bytes > frame.length) return null;
    offset += bytes;
    return offset - bytes;
  };
  const word = (at: number | null) => (at === null ? null : view.getUint32(at));
  const frameCount = word(nextField(XING_FLAG_FRAMES, 4));
  const byteCount = word(nextField(XING_FLAG_BYTES, 4));
  const tocOffset = nextField(XING_FLAG_TOC, 100);
  const quality = word(nextField(XING_FLAG_QUALITY, 4));
  return {
    kind: magic === 'Xing' ? 'xing' : 'info',
    frameCount,
    byteCount,
    toc: tocOffset === null ? null : frame.slice(tocOffset, tocOffset + 100),
    quality,
    lame: readLameExtension(frame, view, offset),
  };
}

function readLameExtension(frame: Uint8Array, view: DataView, start: number): LameExtension | null {
  if (start + LAME_EXTENSION_BYTES > frame.length) return null;
  const delayAndPadding = (view.getUint16(start + LAME_DELAY_OFFSET) << 8) | frame[start + LAME_DELAY_OFFSET + 2]!;
  return {
    encoder: ascii(frame, start, 9).replace(/\0+$/, ''),
    delay: delayAndPadding >> 12,
    padding: delayAndPadding & 0xfff,
    musicLength: view.getUint32(start + 28),
    musicCrc: view.getUint16(start + 32),
    tagCrcValid: crc16(frame.subarray(0, start + 34)) === view.getUint16(start + 34),
  };
}

function readVbri(frame: Uint8Array): VbrTag | null {
  const start = 4 + 32; // fixed place, whatever the mode
  if (start + 18 > frame.length || ascii(frame, start, 4) !== 'VBRI') return null;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  if (view.getUint16(start + 4) !== 1) return null;
  return {
    kind: 'vbri',
    byteCount: view.getUint32(start + 10),
    frameCount: view.getUint32(start + 14),
    toc: null,
    quality: null,
    lame: null,
  };
}

/**
 * Whether the tag's frame is metadata rather than audio. As ffmpeg: only when it says how long
 * the stream is; an empty Xing frame is decoded like any other (as silence).
 */
export function isMetadataFrame(tag: VbrTag | null): boolean {
  return tag !== null && (!!tag.frameCount || !!tag.byteCount);
}

/**
 * The delay and padding a decoder should trust. ffmpeg only reads them after encoder strings it
 * knows write them (LAME and libavcodec/libavformat); others reuse the bytes for other things.
 */
export function trustedGapless(tag: VbrTag | null): GaplessInfo | null {
  const lame = tag?.lame;
  if (!lame || !/^(LAME|Lavf|Lavc)/.test(lame.encoder)) return null;
  return { delay: lame.delay, padding: lame.padding };
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
