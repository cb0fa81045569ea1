import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { analyzeChunks } from '../audio/analyze/index.ts';
import { decodeAudio, openAudioStream, type AudioStream } from '../audio/decode/index.ts';
import { createMp3Encoder, createMp3FileEncoder, type Mp3EncodeOptions } from '../audio/encode/index.ts';
import type { AudioMeasurements, PcmAudio } from '../audio/types.ts';
import { analyzeAudio } from '../audio/analyze/index.ts';
import type { AudioProbe, SourceAudio } from '../audio/jobs.ts';

/**
 * The audio half of ingest, run in worker threads: make the MP3 the catalog delivers and measure
 * that MP3 as a user would decode it (analysis.md: "taken on the decoded audio of the MP3").
 */

export interface MeasuredFile {
  /** The MP3 to store: the source itself when it was an MP3, else the encoded temporary file. */
  mp3Path: string;
  encoded: boolean;
  measurements: AudioMeasurements;
  /** The source as decoded: what its loop points are checked against (ingest/loop.ts). */
  source: SourceAudio;
}

/** Streams a file through decode → encode (to `temporaryPath`) → decode → analysis. */
export async function measureFile(
  sourcePath: string,
  temporaryPath: string,
  encoding: Mp3EncodeOptions = {},
): Promise<MeasuredFile> {
  const source = await openAudioStream(createReadStream(sourcePath, { highWaterMark: 1 << 20 }), sourcePath);
  if (source.format === 'mp3') {
    const measurements = await measureStream(source);
    // The MP3 is stored as it is: its frames are those measured.
    const frames = Math.round(measurements.duration * source.sampleRate);
    return {
      mp3Path: sourcePath,
      encoded: false,
      measurements,
      source: { format: source.format, sampleRate: source.sampleRate, frames },
    };
  }
  let frames = 0;
  const handle = await open(temporaryPath, 'w');
  try {
    const encoder = await createMp3FileEncoder(
      handle,
      { sampleRate: source.sampleRate, channelCount: source.channelCount },
      encoding,
    );
    for await (const chunk of source.chunks) {
      frames += chunk.channels[0]?.length ?? 0;
      await encoder.push(chunk);
    }
    await encoder.finish();
    await handle.sync();
  } finally {
    await handle.close();
  }
  const delivered = await openAudioStream(createReadStream(temporaryPath, { highWaterMark: 1 << 20 }), temporaryPath);
  return {
    mp3Path: temporaryPath,
    encoded: true,
    measurements: await measureStream(delivered),
    source: { format: source.format, sampleRate: source.sampleRate, frames },
  };
}

/**
 * Decodes a whole file and says what it is, writing nothing: what a dry run of ingest needs to
 * know that the file would be taken (a file that fails here would fail ingest the same way).
 */
export async function probeFile(sourcePath: string): Promise<AudioProbe> {
  const source = await openAudioStream(createReadStream(sourcePath, { highWaterMark: 1 << 20 }), sourcePath);
  let frames = 0;
  for await (const chunk of source.chunks) frames += chunk.channels[0]?.length ?? 0;
  return {
    format: source.format,
    sampleRate: source.sampleRate,
    channels: source.channelCount,
    duration: frames / source.sampleRate,
  };
}

/** In memory, for short synthesized sounds: encode, decode the MP3, measure. */
export async function encodeAndMeasure(
  audio: PcmAudio,
): Promise<{ mp3: Uint8Array; sampleRate: number; measurements: AudioMeasurements }> {
  const encoder = await createMp3Encoder({ sampleRate: audio.sampleRate, channelCount: audio.channels.length });
  await encoder.push(audio);
  const mp3 = await encoder.finish();
  const delivered = await decodeAudio(mp3);
  return { mp3, sampleRate: delivered.sampleRate, measurements: analyzeAudio(delivered) };
}

async function measureStream(stream: AudioStream): Promise<AudioMeasurements> {
  return analyzeChunks(stream.sampleRate, stream.channelCount, mapChunks(stream.chunks));
}

async function* mapChunks(chunks: AsyncIterable<PcmAudio>): AsyncGenerator<readonly Float32Array[]> {
  for await (const chunk of chunks) yield chunk.channels;
}
