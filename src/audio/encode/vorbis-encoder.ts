import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createEncoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import type { PcmAudio } from '../types.ts';
import type { FileWriter } from './file-writer.ts';

/**
 * libvorbis's VBR quality 6 (about 190 kbit/s for stereo at 44.1 kHz): transparent for sound
 * effects' sharp transients.
 */
const VBR_QUALITY = 6;
/** Samples handed to libvorbis per call, which bounds the copy into its WASM memory. */
const MAX_SAMPLES_PER_CALL = 32 * 1024;

let compiled: Promise<WebAssembly.Module> | null = null;

/** The Ogg Vorbis build of wasm-media-encoders, compiled once per thread (as lame.ts does for LAME). */
function vorbisModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () =>
    WebAssembly.compile(
      await readFile(createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/ogg')),
    ))().catch((error: unknown) => {
    compiled = null;
    throw error;
  });
  return compiled;
}

/**
 * Ogg Vorbis through libvorbis (wasm-media-encoders), which writes the Ogg pages itself; bytes go
 * to the file as they come.
 */
export class VorbisEncoder {
  private constructor(
    private readonly encoder: WasmMediaEncoder<'audio/ogg'>,
    private readonly out: FileWriter,
  ) {}

  static async create(out: FileWriter, sampleRate: number, channels: 1 | 2): Promise<VorbisEncoder> {
    const encoder = await createEncoder('audio/ogg', await vorbisModule());
    // The package's type lists common rates only; libvorbis itself takes any rate from 8 to 192 kHz.
    encoder.configure({ sampleRate: sampleRate as 44100, channels, vbrQuality: VBR_QUALITY });
    return new VorbisEncoder(encoder, out);
  }

  async push(chunk: PcmAudio): Promise<void> {
    const length = chunk.channels[0]?.length ?? 0;
    for (let from = 0; from < length; from += MAX_SAMPLES_PER_CALL) {
      // The encoder's output lives in its WASM memory until the next call: written before that.
      await this.write(
        this.encoder.encode(chunk.channels.map((channel) => channel.subarray(from, from + MAX_SAMPLES_PER_CALL))),
      );
    }
  }

  async finish(): Promise<void> {
    await this.write(this.encoder.finalize());
  }

  private async write(bytes: Uint8Array): Promise<void> {
    if (bytes.length > 0) await this.out.append(bytes.slice());
  }
}
