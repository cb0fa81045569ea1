import { createRequire } from 'node:module';
import type { PcmAudio } from '../types.ts';
import { type FileWriter, toInteger } from './file-writer.ts';
import type { BitDepth } from './output-format.ts';

/** libFLAC's compression level: its default, the usual balance of size and speed. */
const COMPRESSION_LEVEL = 5;
/** Where STREAMINFO's body starts in the file: after "fLaC" and the metadata block header. */
const STREAMINFO_OFFSET = 8;
const STREAMINFO_BYTES = 34;

interface StreamInfo {
  min_blocksize: number;
  max_blocksize: number;
  min_framesize: number;
  max_framesize: number;
  total_samples: number;
  md5sum: string;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

/** The parts of libflacjs used here (its own typings are a script's globals, not a module's). */
interface LibFlac {
  isReady(): boolean;
  on(event: 'ready', listener: () => void): void;
  create_libflac_encoder(
    rate: number,
    channels: number,
    bits: number,
    level: number,
    totalSamples: number,
    verify: boolean,
    blockSize: number,
  ): number;
  init_encoder_stream(
    encoder: number,
    write: (data: Uint8Array) => void,
    metadata: (info: StreamInfo | undefined) => void,
  ): number;
  FLAC__stream_encoder_process_interleaved(encoder: number, samples: Int32Array, frames: number): boolean;
  FLAC__stream_encoder_finish(encoder: number): boolean;
  FLAC__stream_encoder_delete(encoder: number): void;
}

let loaded: Promise<LibFlac> | null = null;

/**
 * libFLAC compiled to WASM, loaded once per thread. Its Emscripten loader prefers fetch() when it
 * exists, which cannot read a file path; without it the loader reads the .wasm file from disk.
 * The WASM build is used rather than the package's asm.js one, which is several times slower.
 */
function libFlac(): Promise<LibFlac> {
  loaded ??= new Promise<LibFlac>((resolve) => {
    const fetch = globalThis.fetch;
    let flac: LibFlac;
    try {
      (globalThis as { fetch?: unknown }).fetch = undefined;
      flac = (createRequire(import.meta.url)('libflacjs') as (variant: string) => LibFlac)('wasm');
    } finally {
      globalThis.fetch = fetch;
    }
    if (flac.isReady()) resolve(flac);
    else flac.on('ready', () => resolve(flac));
  });
  return loaded;
}

/**
 * FLAC through libFLAC, written as it is encoded. libFLAC writes STREAMINFO first, before it
 * knows the length and MD5; here its final STREAMINFO (given at the end) is written over the
 * first, as libFLAC does itself when it can seek.
 */
export class FlacEncoder {
  private pending: Uint8Array[] = [];
  private info: StreamInfo | undefined;
  private finished = false;

  private constructor(
    private readonly flac: LibFlac,
    private readonly encoder: number,
    private readonly out: FileWriter,
    private readonly channels: number,
    private readonly bitDepth: BitDepth,
  ) {}

  static async create(out: FileWriter, sampleRate: number, channels: number, bitDepth: BitDepth): Promise<FlacEncoder> {
    const flac = await libFlac();
    const handle = flac.create_libflac_encoder(sampleRate, channels, bitDepth, COMPRESSION_LEVEL, 0, false, 0);
    if (!handle) throw new Error(`libFLAC refused ${channels} channels at ${sampleRate} Hz, ${bitDepth} bits`);
    const encoder = new FlacEncoder(flac, handle, out, channels, bitDepth);
    const status = flac.init_encoder_stream(
      handle,
      (data) => encoder.pending.push(data.slice()),
      (info) => (encoder.info = info),
    );
    if (status !== 0) {
      flac.FLAC__stream_encoder_delete(handle);
      throw new Error(`libFLAC could not start (status ${status})`);
    }
    return encoder;
  }

  async push(chunk: PcmAudio): Promise<void> {
    const length = chunk.channels[0]?.length ?? 0;
    const samples = new Int32Array(length * this.channels);
    for (let i = 0, k = 0; i < length; i++) {
      for (let c = 0; c < this.channels; c++) samples[k++] = toInteger(chunk.channels[c]![i]!, this.bitDepth);
    }
    if (!this.flac.FLAC__stream_encoder_process_interleaved(this.encoder, samples, length)) {
      this.release();
      throw new Error('libFLAC failed to encode');
    }
    await this.drain();
  }

  async finish(): Promise<void> {
    const ok = this.flac.FLAC__stream_encoder_finish(this.encoder);
    this.release();
    if (!ok || !this.info) throw new Error('libFLAC failed to finish the stream');
    await this.drain();
    await this.out.writeAt(streamInfoBytes(this.info), STREAMINFO_OFFSET);
  }

  /** Frees libFLAC's encoder; safe to call more than once. */
  release(): void {
    if (this.finished) return;
    this.finished = true;
    this.flac.FLAC__stream_encoder_delete(this.encoder);
  }

  private async drain(): Promise<void> {
    const parts = this.pending;
    this.pending = [];
    for (const part of parts) await this.out.append(part);
  }
}

/** STREAMINFO's 34 bytes (FLAC format, section "METADATA_BLOCK_STREAMINFO"). */
function streamInfoBytes(info: StreamInfo): Uint8Array {
  const bytes = new Uint8Array(STREAMINFO_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, info.min_blocksize);
  view.setUint16(2, info.max_blocksize);
  view.setUint16(4, info.min_framesize >> 8);
  view.setUint8(6, info.min_framesize & 0xff);
  view.setUint16(7, info.max_framesize >> 8);
  view.setUint8(9, info.max_framesize & 0xff);
  const packed =
    (BigInt(info.sampleRate) << 44n) |
    (BigInt(info.channels - 1) << 41n) |
    (BigInt(info.bitsPerSample - 1) << 36n) |
    BigInt(info.total_samples);
  view.setBigUint64(10, packed);
  bytes.set(Buffer.from(info.md5sum.padStart(32, '0'), 'hex'), 18);
  return bytes;
}
