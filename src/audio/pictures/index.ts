/**
 * A sound's pictures, as Freesound gives them: its waveform and its spectrogram, made from the
 * stored MP3 as a PNG file. The MP3 is decoded in chunks into builders of fixed size (the
 * waveform's min/max buckets, the spectrogram's FFT buckets), so memory does not grow with the
 * sound's length; only the picture's pixels are held whole.
 */
import { createReadStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { encode } from 'fast-png';
import { WaveformBuilder } from '../analyze/waveform.ts';
import { openAudioStream } from '../decode/index.ts';
import { drawSpectrogram, drawWaveform, type IndexedPicture } from './draw.ts';
import { SpectrogramBuilder } from './spectrogram.ts';

export type PictureKind = 'waveform' | 'spectrogram';

export interface PictureSpec {
  kind: PictureKind;
  width: number;
  height: number;
}

/** Bytes read from the file at a time, as renditions read it (audio/render.ts). */
const READ_BYTES = 64 * 1024;

/** Draws the picture of the MP3 at `sourcePath` into a PNG at `outputPath`; its size in bytes. Nothing is left on failure. */
export async function renderPicture(sourcePath: string, outputPath: string, spec: PictureSpec): Promise<number> {
  const png = await pictureOf(sourcePath, spec);
  try {
    await writeFile(outputPath, png, { flush: true });
  } catch (error) {
    await rm(outputPath, { force: true });
    throw error;
  }
  return png.byteLength;
}

/** The picture as PNG bytes. */
export async function pictureOf(sourcePath: string, spec: PictureSpec): Promise<Uint8Array> {
  const stream = await openAudioStream(createReadStream(sourcePath, { highWaterMark: READ_BYTES }), sourcePath);
  const { width, height } = spec;
  let picture: IndexedPicture;
  if (spec.kind === 'waveform') {
    const builder = new WaveformBuilder(width);
    for await (const chunk of stream.chunks) builder.push(chunk.channels, chunk.channels[0]?.length ?? 0);
    picture = drawWaveform(builder.finish(), width, height);
  } else {
    const builder = new SpectrogramBuilder(stream.sampleRate, width, height);
    for await (const chunk of stream.chunks) builder.push(chunk.channels, chunk.channels[0]?.length ?? 0);
    picture = drawSpectrogram(builder.finish(), width, height);
  }
  return encode({ width, height, data: picture.indices, channels: 1, depth: 8, palette: picture.palette });
}
