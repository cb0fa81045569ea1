import { FLACDecoder } from '@wasm-audio-decoders/flac';
import type { AudioStream } from './audio-stream.ts';
import type { ByteSource } from './byte-source.ts';
import { readFlacHeader, rescaleFlacSamples } from './flac-header.ts';
import { decodeWithWasm } from './wasm-chunk-decoder.ts';

export async function openFlacStream(source: ByteSource): Promise<AudioStream> {
  const info = readFlacHeader(await source.peek(64));
  return {
    format: 'flac',
    sampleRate: info.sampleRate,
    channelCount: info.channelCount,
    gapless: null,
    chunks: decodeWithWasm(source, {
      name: 'FLAC',
      sampleRate: info.sampleRate,
      channelCount: info.channelCount,
      create: () => new FLACDecoder(),
      adapt: (channels) => {
        rescaleFlacSamples(channels, info.bitsPerSample);
        return channels;
      },
    }),
  };
}
