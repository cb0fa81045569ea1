import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { yieldToEventLoop } from '../audio/decode/audio-stream.ts';
import { openAudioStream } from '../audio/decode/index.ts';
import { Conformer, conformed } from '../audio/encode/conform.ts';
import { FileWriter } from '../audio/encode/file-writer.ts';
import { createMp3FileEncoder } from '../audio/encode/mp3-encoder.ts';
import { VorbisEncoder } from '../audio/encode/vorbis-encoder.ts';
import { playedAudio, type PlayedPart } from '../audio/played-audio.ts';
import type { PcmAudio } from '../audio/types.ts';
import type { StoredSound } from '../catalog/sound.ts';
import type { RenditionChoice } from '../media/rendition-choice.ts';
import type { RenditionPayment } from '../media/renditions.ts';
import { RENDITION_PRICE, RENDITION_PRICE_SECONDS, outputSeconds, workWeight } from '../media/rendition-work.ts';

/**
 * A pack's audio sprite: every sound end to end in one Ogg Vorbis and one MP3 file, with the
 * maps game engines read to play one sound of it (Howler.js and Phaser 3). Both files hold the
 * same samples at SPRITE_RATE: the sounds decoded from the catalog's files (cut to onset and tail
 * when the pack asks for trim; loudness and format are the files' options, not the sprite's),
 * brought to the pack's channels (stereo unless it asks for mono), with SPRITE_GAP_SECONDS of
 * silence between two sounds so that a decoder's pre-roll or a player's late stop never sounds
 * a neighbour. Offsets are counted in samples while encoding; the MP3's LAME tag states the
 * encoder's delay and padding, so a gapless decoder (browsers, ffmpeg) puts sample 0 where the
 * Ogg file has it and the one map holds for both.
 */
export const SPRITE_RATE = 44_100;
export const SPRITE_GAP_SECONDS = 0.25;
/** The most seconds of sound one sprite holds (its gaps not counted): sprites are for short sounds. */
export const SPRITE_MAX_SECONDS = 600;
export const SPRITE_FILES = {
  ogg: 'sprite.ogg',
  mp3: 'sprite.mp3',
  howler: 'sprite.howler.json',
  phaser: 'sprite.phaser.json',
} as const;
/** Bytes per second per channel, about: libvorbis at quality 6 and LAME at V2 (audio/encode/). */
const OGG_BYTES_PER_CHANNEL_SECOND = 96_000 / 8;
const MP3_BYTES_PER_CHANNEL_SECOND = 95_000 / 8;
/** A map's bytes per sound in both JSON files, about. */
const MAP_BYTES_PER_SOUND = 220;
/**
 * Samples encoded between two turns of the event loop. Sprites are made on the server's own
 * thread (the render pool's workers run ingest's jobs only), so the work goes in slices short
 * enough not to hold other requests back for long.
 */
const SLICE_FRAMES = 4096;
/** Sprites made at once in one process; more wait for their turn (their ZIP pauses before its sprite). */
export const SPRITES_AT_ONCE = 1;

/** The sounds' seconds are past SPRITE_MAX_SECONDS: no sprite is made of them. */
export class SpriteTooLongError extends Error {
  constructor(readonly seconds: number) {
    super(
      `a sprite holds at most ${SPRITE_MAX_SECONDS} seconds of sound; these sounds last ${Math.ceil(seconds)} ` +
        'seconds: ask for fewer or shorter sounds, or for the pack without sprite',
    );
  }
}

/** The channels of the sprite a pack of this rendition holds. */
function spriteChannels(choice: RenditionChoice): 1 | 2 {
  return choice.channels ?? 2;
}

/** Seconds of sound in the sprite (what each sound plays, trimmed when the pack is), gaps not counted. */
export function spriteSeconds(sounds: StoredSound[], choice: RenditionChoice): number {
  return sounds.reduce((sum, sound) => sum + outputSeconds(sound, { trim: choice.trim }), 0);
}

/** Refuses a sprite past SPRITE_MAX_SECONDS (SpriteTooLongError), before anything is signed or paid. */
export function checkSprite(sounds: StoredSound[], choice: RenditionChoice): void {
  const seconds = spriteSeconds(sounds, choice);
  if (seconds > SPRITE_MAX_SECONDS) throw new SpriteTooLongError(seconds);
}

/**
 * What making the sprite costs: two renditions (Ogg and MP3) of its whole length, gaps included,
 * at the price of rendition-work.ts (RENDITION_PRICE per started RENDITION_PRICE_SECONDS,
 * weighted by its rate and channels), paid through the same charge as the pack's renditions.
 */
export function spritePrice(sounds: StoredSound[], choice: RenditionChoice): number {
  const seconds = spriteSeconds(sounds, choice) + SPRITE_GAP_SECONDS * Math.max(0, sounds.length - 1);
  const blocks = Math.max(1, Math.ceil(seconds / RENDITION_PRICE_SECONDS));
  const weight = workWeight({ sampleRate: SPRITE_RATE, channels: spriteChannels(choice) });
  return 2 * Math.max(1, Math.ceil(RENDITION_PRICE * blocks * weight));
}

/** The sprite's four files' size, estimated from the encoders' usual rates. */
export function estimateSpriteBytes(sounds: StoredSound[], choice: RenditionChoice): number {
  const seconds = spriteSeconds(sounds, choice) + SPRITE_GAP_SECONDS * Math.max(0, sounds.length - 1);
  const perSecond = (OGG_BYTES_PER_CHANNEL_SECOND + MP3_BYTES_PER_CHANNEL_SECOND) * spriteChannels(choice);
  return perSecond * seconds + MAP_BYTES_PER_SOUND * sounds.length;
}

/** One sound in the sprite, in samples at SPRITE_RATE. */
export interface SpriteEntry {
  /** Its key in the maps: its file's name in the pack without the extension (unique in the pack). */
  key: string;
  start: number;
  length: number;
  loop: boolean;
}

/** A sprite made: where its two audio files are, and its sounds. `dispose` removes the files. */
export interface Sprite {
  oggPath: string;
  mp3Path: string;
  entries: SpriteEntry[];
  dispose(): Promise<void>;
}

/** What making a sprite reads and pays with. */
export interface SpriteSources {
  /** The catalog's file of a sound. */
  read(sound: StoredSound): Promise<Readable>;
  /** Pays for the sprite before any work (rendition-payment.ts); its refund when making it fails. */
  pay?: () => Promise<RenditionPayment>;
}

/**
 * Makes the sprite of `sounds` (keys: their file names in the pack) in a temporary folder,
 * streaming: one decoded chunk of one sound is in memory at a time, and each goes to both
 * encoders. Aborting `signal` stops it between chunks; on failure nothing is left on disk and
 * the payment is given back.
 */
export async function makeSprite(
  sounds: StoredSound[],
  keys: string[],
  choice: RenditionChoice,
  sources: SpriteSources,
  signal: AbortSignal,
): Promise<Sprite> {
  const leave = await spriteTurns.enter(signal);
  try {
    return await makeSpriteInTurn(sounds, keys, choice, sources, signal);
  } finally {
    leave();
  }
}

async function makeSpriteInTurn(
  sounds: StoredSound[],
  keys: string[],
  choice: RenditionChoice,
  sources: SpriteSources,
  signal: AbortSignal,
): Promise<Sprite> {
  const payment = await sources.pay?.();
  const folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-sprite-'));
  const sprite: Sprite = {
    oggPath: path.join(folder, SPRITE_FILES.ogg),
    mp3Path: path.join(folder, SPRITE_FILES.mp3),
    entries: [],
    dispose: () => rm(folder, { recursive: true, force: true }),
  };
  try {
    await encodeSprite(sounds, keys, choice, sources, signal, sprite);
    return sprite;
  } catch (error) {
    await sprite.dispose();
    await payment?.refund();
    throw error;
  }
}

async function encodeSprite(
  sounds: StoredSound[],
  keys: string[],
  choice: RenditionChoice,
  sources: SpriteSources,
  signal: AbortSignal,
  sprite: Sprite,
): Promise<void> {
  const channels = spriteChannels(choice);
  const ogg = await open(sprite.oggPath, 'w');
  const mp3File = await open(sprite.mp3Path, 'w');
  try {
    const vorbis = await VorbisEncoder.create(new FileWriter(ogg), SPRITE_RATE, channels);
    const mp3 = await createMp3FileEncoder(mp3File, { sampleRate: SPRITE_RATE, channelCount: channels });
    const push = async (chunk: PcmAudio) => {
      const length = chunk.channels[0]?.length ?? 0;
      for (let from = 0; from < length; from += SLICE_FRAMES) {
        await yieldToEventLoop();
        signal.throwIfAborted();
        const slice = { ...chunk, channels: chunk.channels.map((c) => c.subarray(from, from + SLICE_FRAMES)) };
        await vorbis.push(slice);
        await mp3.push(slice);
      }
    };
    const gap = Math.round(SPRITE_GAP_SECONDS * SPRITE_RATE);
    let position = 0;
    for (const [index, sound] of sounds.entries()) {
      if (index > 0) {
        await push(silence(channels, gap));
        position += gap;
      }
      const source = await openAudioStream(await sources.read(sound), keys[index]);
      const conformer = new Conformer(source.channelCount, source.sampleRate, channels, SPRITE_RATE);
      let length = 0;
      for await (const chunk of conformed(
        playedAudio(source.chunks, source.sampleRate, playedPart(sound, choice)),
        conformer,
      )) {
        await push(chunk);
        length += chunk.channels[0]?.length ?? 0;
      }
      sprite.entries.push({ key: keys[index]!, start: position, length, loop: isLoop(sound) });
      position += length;
    }
    await vorbis.finish();
    await mp3.finish();
  } finally {
    await ogg.close();
    await mp3File.close();
  }
}

/** The stretch of a sound the sprite plays: onset to tail when the pack is trimmed, as its renditions are. */
function playedPart(sound: StoredSound, choice: RenditionChoice): PlayedPart {
  const { onset_ms: onset, tail_ms: tail } = sound.timing;
  return choice.trim && onset !== null && tail !== null && tail > onset
    ? { trim: { startMs: onset, endMs: tail } }
    : {};
}

/**
 * Whether a sound loops: read defensively, since the catalog's sounds learn their loop points
 * (`loop: { startSample, endSample } | null`) in their own change; absent or null is no loop.
 */
function isLoop(sound: StoredSound): boolean {
  const loop = (sound as { loop?: unknown }).loop;
  return typeof loop === 'object' && loop !== null;
}

/** Who may make a sprite now: SPRITES_AT_ONCE at a time, the others in the order they came. */
class Turns {
  private running = 0;
  private readonly line: Array<() => void> = [];

  constructor(private readonly atOnce: number) {}

  /** Resolves with the function that gives the turn back (once) when it is this caller's; rejects when `signal` aborts first. */
  async enter(signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    if (this.running >= this.atOnce) {
      await new Promise<void>((resolve, reject) => {
        const start = () => {
          signal.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          this.line.splice(this.line.indexOf(start), 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', leave, { once: true });
        this.line.push(start);
      });
    } else {
      this.running++;
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      // The turn passes to the next in line, or is free.
      const next = this.line.shift();
      if (next) next();
      else this.running--;
    };
  }
}

/** The one line of this process's sprites: each is CPU work on the server's thread, so they take turns. */
const spriteTurns = new Turns(SPRITES_AT_ONCE);

function silence(channels: number, frames: number): PcmAudio {
  return { sampleRate: SPRITE_RATE, channels: Array.from({ length: channels }, () => new Float32Array(frames)) };
}

/** Howler.js's sprite map: `new Howl(map)` plays `sprite: "<key>"`; times in milliseconds, to the sample. */
export function howlerMap(entries: SpriteEntry[]): string {
  const sprite = Object.fromEntries(
    entries.map((entry) => {
      const times = [milliseconds(entry.start), milliseconds(entry.length)];
      return [entry.key, entry.loop ? [...times, true] : times];
    }),
  );
  return `${JSON.stringify({ src: [SPRITE_FILES.ogg, SPRITE_FILES.mp3], sprite }, null, 2)}\n`;
}

/** Phaser 3's audio sprite JSON (`this.load.audioSprite`): times in seconds, to the sample. */
export function phaserMap(entries: SpriteEntry[]): string {
  const spritemap = Object.fromEntries(
    entries.map((entry) => [
      entry.key,
      { start: seconds(entry.start), end: seconds(entry.start + entry.length), loop: entry.loop },
    ]),
  );
  return `${JSON.stringify({ resources: [SPRITE_FILES.ogg, SPRITE_FILES.mp3], spritemap }, null, 2)}\n`;
}

/** Samples as milliseconds with three decimals: a sample is 22.7 µs, so rounding them back finds it. */
function milliseconds(samples: number): number {
  return Math.round((samples * 1_000_000) / SPRITE_RATE) / 1000;
}

function seconds(samples: number): number {
  return Math.round((samples * 1_000_000) / SPRITE_RATE) / 1_000_000;
}
