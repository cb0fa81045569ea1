import type { PcmAudio } from '../types.ts';
import { yieldToEventLoop } from './audio-stream.ts';
import type { ByteSource } from './byte-source.ts';
import { withConsoleErrorsCaptured } from './console-capture.ts';
import { freeDecoder } from './free-decoder.ts';
import { DecodeError } from './decode-error.ts';

/** What @wasm-audio-decoders/flac and ogg-vorbis have in common. */
export interface ChunkDecoder {
  ready: Promise<void>;
  decode(bytes: Uint8Array): Promise<{ channelData: Float32Array[]; samplesDecoded: number }>;
  flush(): Promise<{ channelData: Float32Array[]; samplesDecoded: number }>;
  free(): void;
}

export interface ChunkDecoding {
  /** "FLAC", "Ogg Vorbis": for messages. */
  name: string;
  sampleRate: number;
  channelCount: number;
  create(): ChunkDecoder;
  /** Puts the decoder's channels into the service's form (order, scale). */
  adapt(channels: Float32Array[]): Float32Array[];
}

const READ_BYTES = 64 * 1024;

/** Feeds a byte source through a WASM decoder, yielding its output as it comes and freeing it after. */
export async function* decodeWithWasm(source: ByteSource, decoding: ChunkDecoding): AsyncGenerator<PcmAudio> {
  const { name, sampleRate, channelCount } = decoding;
  const messages: string[] = [];
  const decoder = decoding.create();
  let decodedAny = false;
  try {
    await decoder.ready;
    for (;;) {
      const bytes = await source.readSome(READ_BYTES);
      let decoded: Awaited<ReturnType<typeof decoder.decode>>;
      try {
        const pending = withConsoleErrorsCaptured(() => (bytes ? decoder.decode(bytes) : decoder.flush()), messages);
        decoded = await pending;
      } catch (error) {
        throw new DecodeError(`damaged ${name} data`, { cause: error });
      }
      if (decoded.samplesDecoded > 0) {
        decodedAny = true;
        yield {
          sampleRate,
          channels: fitChannels(decoding.adapt(decoded.channelData), channelCount, decoded.samplesDecoded),
        };
      }
      if (!bytes) break;
      await yieldToEventLoop();
    }
  } finally {
    freeDecoder(decoder);
  }
  if (!decodedAny && messages.length > 0) throw new DecodeError(`damaged ${name} data: ${messages[0]}`);
}

/** A damaged stream can make a decoder report other channel counts; keep the header's. */
function fitChannels(channels: Float32Array[], channelCount: number, length: number): Float32Array[] {
  if (channels.length === channelCount && channels.every((c) => c.length === length)) return channels;
  return Array.from({ length: channelCount }, (_, c) => {
    const fitted = new Float32Array(length);
    const from = channels[c];
    if (from) fitted.set(from.subarray(0, length));
    return fitted;
  });
}
