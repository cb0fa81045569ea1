import { createRequire } from 'node:module';
import type { PcmAudio } from '../types.ts';
import type { FileWriter } from './file-writer.ts';
import { toInteger } from './file-writer.ts';
import { OggWriter } from './ogg-writer.ts';
import { OPUS_RATE } from './output-format.ts';

/** 20 ms: Opus's usual frame, the best of quality and overhead for music and effects. */
const FRAME = 960;
/**
 * Samples libopus's encoder delays its output by at 48 kHz in the AUDIO application (2.5 ms of
 * look-ahead and 4 ms of delay compensation): the pre-skip the file tells decoders to drop.
 * opusscript does not expose OPUS_GET_LOOKAHEAD, so it is the documented constant.
 */
const PRE_SKIP = 312;
/** Bits per second per channel: transparent for most material in Opus. */
const BITRATE_PER_CHANNEL = 64_000;

/** libopus's OPUS_APPLICATION_AUDIO and OPUS_SET_BITRATE_REQUEST (opus_defines.h). */
const APPLICATION_AUDIO = 2049;
const SET_BITRATE = 4002;
/** The largest Opus packet (RFC 6716, section 3.2.5) and the longest frame decoded (120 ms). */
const MAX_PACKET_BYTES = 1276 * 3;
const MAX_DECODED_FRAME = 5760;

/** opusscript's WASM build of libopus: an encoder or decoder state (OpusScriptHandler) and the module's heap. */
interface OpusHandler {
  _encode(input: number, length: number, output: number, frameSize: number): number;
  _decode(input: number, length: number, output: number): number;
  _encoder_ctl(request: number, value: number): number;
}
interface OpusNative {
  OpusScriptHandler: (new (
    rate: number,
    channels: number,
    application: number,
  ) => OpusHandler) & { destroy_handler(handler: OpusHandler): void };
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  HEAP16: Int16Array;
  HEAPU8: Uint8Array;
}

let opusNative: OpusNative | null = null;

/**
 * libopus as opusscript builds it, called directly rather than through opusscript's JavaScript
 * class: that class indexes its 16-bit heap view with byte addresses, so its PCM buffers lie at
 * twice the address it allocated, over other allocations (two encoders in one thread corrupt
 * each other). Here each buffer is allocated, addressed in bytes, and reached through a heap view
 * taken at the time of use (a view made before the heap grew is empty).
 *
 * The build's PCM protocol, both ways: each byte of the little-endian 16-bit samples sits in a
 * 16-bit slot of its own (low byte first), so a sample takes four bytes of the buffer.
 */
function native(): OpusNative {
  opusNative ??= (createRequire(import.meta.url)('opusscript/build/opusscript_native_wasm.js') as () => OpusNative)();
  return opusNative;
}

/** One libopus encoder and one decoder at 48 kHz, with their buffers in the module's heap. */
class LibOpus {
  private readonly encoder: OpusHandler;
  private readonly decoder: OpusHandler;
  private readonly pcmIn: number;
  private readonly packet: number;
  private readonly pcmOut: number;

  constructor(
    private readonly lib: OpusNative,
    private readonly channels: number,
  ) {
    this.encoder = new lib.OpusScriptHandler(OPUS_RATE, channels, APPLICATION_AUDIO);
    this.decoder = new lib.OpusScriptHandler(OPUS_RATE, channels, APPLICATION_AUDIO);
    this.pcmIn = lib._malloc(FRAME * channels * 4);
    this.packet = lib._malloc(MAX_PACKET_BYTES);
    this.pcmOut = lib._malloc(MAX_DECODED_FRAME * channels * 4);
    if (this.encoder._encoder_ctl(SET_BITRATE, BITRATE_PER_CHANNEL * channels) < 0)
      throw new Error('libopus refused the bitrate');
  }

  /** One frame of interleaved samples to one packet (a copy). */
  encode(frame: Int16Array): Uint8Array {
    const slots = this.lib.HEAP16;
    const at = this.pcmIn >> 1;
    for (let i = 0; i < frame.length; i++) {
      slots[at + 2 * i] = frame[i]! & 0xff;
      slots[at + 2 * i + 1] = (frame[i]! >> 8) & 0xff;
    }
    const length = this.encoder._encode(this.pcmIn, frame.length * 2, this.packet, FRAME);
    if (length < 0) throw new Error(`libopus failed to encode (error ${length})`);
    return this.lib.HEAPU8.slice(this.packet, this.packet + length);
  }

  /** A packet to interleaved samples (a copy). */
  decode(packet: Uint8Array): Int16Array {
    this.lib.HEAPU8.set(packet, this.packet);
    const frames = this.decoder._decode(this.packet, packet.length, this.pcmOut);
    if (frames < 0) throw new Error(`libopus failed to decode (error ${frames})`);
    const slots = this.lib.HEAP16;
    const at = this.pcmOut >> 1;
    const pcm = new Int16Array(frames * this.channels);
    for (let i = 0; i < pcm.length; i++) pcm[i] = (slots[at + 2 * i + 1]! << 8) | (slots[at + 2 * i]! & 0xff);
    return pcm;
  }

  delete(): void {
    this.lib.OpusScriptHandler.destroy_handler(this.encoder);
    this.lib.OpusScriptHandler.destroy_handler(this.decoder);
    for (const pointer of [this.pcmIn, this.packet, this.pcmOut]) this.lib._free(pointer);
  }
}

/**
 * Ogg Opus through libopus (opusscript's build), at 48 kHz, written as it is encoded. Every packet is
 * also decoded at once by libopus, and what a player would hear (after the pre-skip, up to the
 * input's length) is handed to `onDecoded`: the project has no Opus decoder of its own, and
 * measuring the decoded packets in the same pass costs less than reading the file back.
 */
export class OpusEncoder {
  private readonly opus: LibOpus;
  private readonly ogg: OggWriter;
  /** Interleaved samples waiting for a whole frame. */
  private readonly frame: Int16Array;
  private filled = 0;
  private inputFrames = 0;
  private encodedFrames = 0;
  private decodedFrames = 0;
  private released = false;

  private constructor(
    out: FileWriter,
    private readonly channels: number,
    private readonly onDecoded: (chunk: PcmAudio) => void,
  ) {
    this.opus = new LibOpus(native(), channels);
    this.frame = new Int16Array(FRAME * channels);
    // A serial number only has to differ between streams chained in one file; this file has one.
    this.ogg = new OggWriter(out, 1);
  }

  static async create(out: FileWriter, channels: number, onDecoded: (chunk: PcmAudio) => void): Promise<OpusEncoder> {
    const encoder = new OpusEncoder(out, channels, onDecoded);
    await encoder.ogg.headerPacket(opusHead(channels), true);
    await encoder.ogg.headerPacket(opusTags(), false);
    return encoder;
  }

  async push(chunk: PcmAudio): Promise<void> {
    if (chunk.sampleRate !== OPUS_RATE)
      throw new RangeError(`Opus is encoded at ${OPUS_RATE} Hz, not ${chunk.sampleRate}`);
    const length = chunk.channels[0]?.length ?? 0;
    this.inputFrames += length;
    for (let i = 0; i < length; i++) {
      for (let c = 0; c < this.channels; c++)
        this.frame[this.filled * this.channels + c] = toInteger(chunk.channels[c]![i]!, 16);
      if (++this.filled === FRAME) await this.encodeFrame();
    }
  }

  /** Pads with silence until the encoder's delayed output holds every input sample, then ends the stream. */
  async finish(): Promise<void> {
    try {
      while (this.encodedFrames < this.inputFrames + PRE_SKIP) {
        this.frame.fill(0, this.filled * this.channels);
        this.filled = FRAME;
        await this.encodeFrame();
      }
      await this.ogg.end();
    } finally {
      this.release();
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.opus.delete();
  }

  private async encodeFrame(): Promise<void> {
    const packet = this.opus.encode(this.frame);
    this.filled = 0;
    this.encodedFrames += FRAME;
    // The last page's granule is the pre-skip plus the input's length: decoders cut the padding.
    const end = Math.min(this.encodedFrames, this.inputFrames + PRE_SKIP);
    await this.ogg.packet(packet, BigInt(end));
    this.hear(packet);
  }

  /** What a player makes of the packet: decoded, pre-skip and padding cut. */
  private hear(packet: Uint8Array): void {
    const pcm = this.opus.decode(packet);
    const frames = pcm.length / this.channels;
    const from = Math.max(0, PRE_SKIP - this.decodedFrames);
    const to = Math.min(frames, PRE_SKIP + this.inputFrames - this.decodedFrames);
    this.decodedFrames += frames;
    if (to <= from) return;
    const channels = Array.from({ length: this.channels }, () => new Float32Array(to - from));
    for (let i = from; i < to; i++) {
      for (let c = 0; c < this.channels; c++) channels[c]![i - from] = pcm[i * this.channels + c]! / 32768;
    }
    this.onDecoded({ sampleRate: OPUS_RATE, channels });
  }
}

/** The identification header (RFC 7845, section 5.1): mapping family 0, mono or stereo. */
function opusHead(channels: number): Uint8Array {
  const bytes = new Uint8Array(19);
  const view = new DataView(bytes.buffer);
  bytes.set(Buffer.from('OpusHead', 'ascii'));
  view.setUint8(8, 1);
  view.setUint8(9, channels);
  view.setUint16(10, PRE_SKIP, true);
  view.setUint32(12, OPUS_RATE, true);
  view.setInt16(16, 0, true);
  view.setUint8(18, 0);
  return bytes;
}

/** The comment header (RFC 7845, section 5.2): the vendor string and no comments. */
function opusTags(): Uint8Array {
  const vendor = Buffer.from('sound-catalog (libopus via opusscript)', 'utf8');
  const bytes = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(bytes.buffer);
  bytes.set(Buffer.from('OpusTags', 'ascii'));
  view.setUint32(8, vendor.length, true);
  bytes.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true);
  return bytes;
}
