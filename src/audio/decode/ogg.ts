import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { OggVorbisDecoder } from '@wasm-audio-decoders/ogg-vorbis';
import type { AudioStream } from './audio-stream.ts';
import type { ByteSource } from './byte-source.ts';
import { rescaleFlacSamples } from './flac-header.ts';
import { readOggHeader, vorbisToWavOrder } from './ogg-header.ts';
import { decodeWithWasm } from './wasm-chunk-decoder.ts';

/** Ogg Vorbis, and FLAC in Ogg (the FLAC decoder reads both containers). */
export async function openOggStream(source: ByteSource): Promise<AudioStream> {
  const info = readOggHeader(await source.peek(27 + 255 + 64));
  const { sampleRate, channelCount } = info;
  const chunks =
    info.codec === 'vorbis'
      ? decodeWithWasm(source, {
          name: 'Ogg Vorbis',
          sampleRate,
          channelCount,
          create: () => new OggVorbisDecoder(),
          adapt: vorbisToWavOrder,
        })
      : decodeWithWasm(source, {
          name: 'Ogg FLAC',
          sampleRate,
          channelCount,
          create: () => new FLACDecoder(),
          adapt: (channels) => {
            rescaleFlacSamples(channels, info.bitsPerSample);
            return channels;
          },
        });
  return { format: 'ogg', sampleRate, channelCount, gapless: null, chunks };
}
