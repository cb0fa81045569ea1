import { DecodeError } from './decode-error.ts';
import { type FlacStreamInfo, readStreamInfo, STREAMINFO_BYTES } from './flac-header.ts';

export type OggCodecInfo =
  | { codec: 'vorbis'; sampleRate: number; channelCount: number }
  | ({ codec: 'flac' } & FlacStreamInfo);

/** Identifies the codec of an Ogg stream from the first packet of its first page. */
export function readOggHeader(head: Uint8Array): OggCodecInfo {
  if (head.length < 27) throw new DecodeError('truncated Ogg header');
  const packetStart = 27 + head[26]!;
  const packet = head.subarray(packetStart);
  if (startsWith(packet, [0x01, ...bytes('vorbis')])) {
    if (packet.length < 16) throw new DecodeError('truncated Ogg header');
    const channelCount = packet[11]!;
    const sampleRate = new DataView(packet.buffer, packet.byteOffset + 12, 4).getUint32(0, true);
    if (channelCount === 0) throw new DecodeError('Ogg Vorbis has zero channels');
    if (sampleRate === 0) throw new DecodeError('Ogg Vorbis has a zero sample rate');
    return { codec: 'vorbis', sampleRate, channelCount };
  }
  if (startsWith(packet, [0x7f, ...bytes('FLAC')])) {
    // 0x7F "FLAC", version (2), header count (2), "fLaC", STREAMINFO block header (4), body.
    return { codec: 'flac', ...readStreamInfo(packet.subarray(17, 17 + STREAMINFO_BYTES), 'Ogg FLAC') };
  }
  if (startsWith(packet, bytes('OpusHead'))) throw new DecodeError('unsupported audio format: Ogg Opus');
  if (startsWith(packet, bytes('Speex'))) throw new DecodeError('unsupported audio format: Ogg Speex');
  throw new DecodeError('unsupported Ogg stream: not Vorbis or FLAC');
}

/**
 * libvorbis hands out channels in Vorbis order (L C R for 3, L C R Ls Rs LFE for 5.1, ...); the
 * service uses WAV order. For each channel count, the Vorbis channel that goes to each WAV slot.
 */
const VORBIS_TO_WAV: Record<number, number[]> = {
  3: [0, 2, 1],
  5: [0, 2, 1, 3, 4],
  6: [0, 2, 1, 5, 3, 4],
  7: [0, 2, 1, 6, 5, 3, 4],
  8: [0, 2, 1, 7, 5, 6, 3, 4],
};

export function vorbisToWavOrder<T>(channels: T[]): T[] {
  const order = VORBIS_TO_WAV[channels.length];
  return order ? order.map((from) => channels[from]!) : channels;
}

function startsWith(data: Uint8Array, prefix: readonly number[]): boolean {
  return data.length >= prefix.length && prefix.every((byte, i) => data[i] === byte);
}

function bytes(text: string): number[] {
  return [...text].map((ch) => ch.charCodeAt(0));
}
