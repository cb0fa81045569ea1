/**
 * MPEG audio frame headers (ISO 11172-3 / 13818-3): what a frame is, how long it is, how many
 * samples it carries. Shared by the MP3 decoder (to find frames and the tag) and the encoder
 * (to count LAME's frames and write the Info frame).
 */
export type MpegVersion = 1 | 2 | 2.5;

export interface MpegFrameHeader {
  version: MpegVersion;
  layer: 1 | 2 | 3;
  /** True when a 16-bit CRC follows the header. */
  hasCrc: boolean;
  bitrateKbps: number;
  sampleRate: number;
  padded: boolean;
  /** 0 stereo, 1 joint stereo, 2 dual channel, 3 mono. */
  channelMode: 0 | 1 | 2 | 3;
  channelCount: 1 | 2;
  frameBytes: number;
  samplesPerFrame: number;
}

const BITRATES_V1 = [
  [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
] as const;
const BITRATES_V2 = [
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
] as const;
const BASE_RATES = [44100, 48000, 32000] as const;

/** Layer III bitrates (kbps) by index for an MPEG version; index 0 is "free format". */
export function layer3Bitrates(version: MpegVersion): readonly number[] {
  return version === 1 ? BITRATES_V1[2] : BITRATES_V2[2];
}

/** Parses the 4 bytes at `offset`; null when they are not a usable frame header. */
export function parseMpegHeader(bytes: Uint8Array, offset: number): MpegFrameHeader | null {
  if (offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  const b3 = bytes[offset + 3]!;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  // Reserved values; bitrate index 0 is free format, which has no computable frame length.
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const version: MpegVersion = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const bitrateKbps = (version === 1 ? BITRATES_V1 : BITRATES_V2)[layer - 1]![bitrateIndex]!;
  const sampleRate = BASE_RATES[rateIndex]! / (version === 1 ? 1 : version === 2 ? 2 : 4);
  const padded = ((b2 >> 1) & 1) === 1;
  const channelMode = (b3 >> 6) as 0 | 1 | 2 | 3;
  const samplesPerFrame = layer === 1 ? 384 : layer === 3 && version !== 1 ? 576 : 1152;
  const frameBytes =
    layer === 1
      ? (Math.floor((12000 * bitrateKbps) / sampleRate) + (padded ? 1 : 0)) * 4
      : Math.floor(((samplesPerFrame / 8) * 1000 * bitrateKbps) / sampleRate) + (padded ? 1 : 0);
  return {
    version,
    layer,
    hasCrc: (b1 & 1) === 0,
    bitrateKbps,
    sampleRate,
    padded,
    channelMode,
    channelCount: channelMode === 3 ? 1 : 2,
    frameBytes,
    samplesPerFrame,
  };
}

/** Bytes of Layer III side information after the header (and CRC): where a Xing tag starts. */
export function sideInfoBytes(header: Pick<MpegFrameHeader, 'version' | 'channelCount'>): number {
  if (header.version === 1) return header.channelCount === 1 ? 17 : 32;
  return header.channelCount === 1 ? 9 : 17;
}

/** Frames of one stream share version, layer and rate; anything else is junk that looks like a header. */
export function sameStream(a: MpegFrameHeader, b: MpegFrameHeader): boolean {
  return a.version === b.version && a.layer === b.layer && a.sampleRate === b.sampleRate;
}
