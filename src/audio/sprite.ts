import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { openAudioStream } from './decode/index.ts';
import { Conformer, conformed } from './encode/conform.ts';
import { FileWriter } from './encode/file-writer.ts';
import { createMp3FileEncoder } from './encode/mp3-encoder.ts';
import { VorbisEncoder } from './encode/vorbis-encoder.ts';
import { playedAudio, type PlayedPart } from './played-audio.ts';
import type { PcmAudio } from './types.ts';

/**
 * An audio sprite: sounds end to end in one Ogg Vorbis and one MP3 file holding the same samples
 * at SPRITE_RATE, with SPRITE_GAP_SECONDS of silence between two sounds so that a decoder's
 * pre-roll or a player's late stop never sounds a neighbour. Offsets are counted in samples while
 * encoding; the MP3's LAME tag states the encoder's delay and padding, so a gapless decoder
 * (browsers, ffmpeg) puts sample 0 where the Ogg file has it and one map holds for both. Made on
 * a worker thread (ingest/worker.ts), never on the server's.
 */
export const SPRITE_RATE = 44_100;
export const SPRITE_GAP_SECONDS = 0.25;
/** Bytes read from a source file at a time. */
const READ_BYTES = 64 * 1024;

/** What making a sprite reads: each sound's local file and the part of it played, and the channels of both files. */
export interface SpriteSpec {
  sounds: Array<{ sourcePath: string; key: string; played: PlayedPart; loop: boolean }>;
  channels: 1 | 2;
}

/** One sound in the sprite, in samples at SPRITE_RATE. */
export interface SpriteEntry {
  /** Its key in the maps. */
  key: string;
  start: number;
  length: number;
  loop: boolean;
}

/**
 * Writes the sprite of `spec` as two whole, synced files at `oggPath` and `mp3Path`, streaming:
 * one decoded chunk of one sound is in memory at a time, and each goes to both encoders. Returns
 * where each sound starts and how long it lasts. The caller removes the files when this fails.
 */
export async function renderSprite(spec: SpriteSpec, oggPath: string, mp3Path: string): Promise<SpriteEntry[]> {
  const { channels } = spec;
  const ogg = await open(oggPath, 'w');
  let mp3File: FileHandle | null = null;
  try {
    mp3File = await open(mp3Path, 'w');
    const vorbis = await VorbisEncoder.create(new FileWriter(ogg), SPRITE_RATE, channels);
    const mp3 = await createMp3FileEncoder(mp3File, { sampleRate: SPRITE_RATE, channelCount: channels });
    const push = async (chunk: PcmAudio) => {
      await vorbis.push(chunk);
      await mp3.push(chunk);
    };
    const gap = Math.round(SPRITE_GAP_SECONDS * SPRITE_RATE);
    const entries: SpriteEntry[] = [];
    let position = 0;
    for (const [index, sound] of spec.sounds.entries()) {
      if (index > 0) {
        await push(silence(channels, gap));
        position += gap;
      }
      const reader = createReadStream(sound.sourcePath, { highWaterMark: READ_BYTES });
      const source = await openAudioStream(reader, sound.sourcePath);
      const conformer = new Conformer(source.channelCount, source.sampleRate, channels, SPRITE_RATE);
      let length = 0;
      for await (const chunk of conformed(playedAudio(source.chunks, source.sampleRate, sound.played), conformer)) {
        await push(chunk);
        length += chunk.channels[0]?.length ?? 0;
      }
      entries.push({ key: sound.key, start: position, length, loop: sound.loop });
      position += length;
    }
    await vorbis.finish();
    await mp3.finish();
    await ogg.sync();
    await mp3File.sync();
    return entries;
  } finally {
    await ogg.close();
    await mp3File?.close();
  }
}

function silence(channels: number, frames: number): PcmAudio {
  return { sampleRate: SPRITE_RATE, channels: Array.from({ length: channels }, () => new Float32Array(frames)) };
}
