import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PlayedPart } from '../audio/played-audio.ts';
import { SPRITE_GAP_SECONDS, SPRITE_RATE, type SpriteEntry, type SpriteSpec } from '../audio/sprite.ts';
import type { StoredSound } from '../catalog/sound.ts';
import type { RenditionChoice } from '../media/rendition-choice.ts';
import type { RenditionPayment, RenditionService } from '../media/renditions.ts';
import { whenThreadFree } from './busy-wait.ts';
import { RENDITION_PRICE, RENDITION_PRICE_SECONDS, outputSeconds, workWeight } from '../media/rendition-work.ts';

/**
 * A pack's audio sprite: every sound end to end in one Ogg Vorbis and one MP3 file, with the
 * maps game engines read to play one sound of it (Howler.js and Phaser 3). The audio is
 * audio/sprite.ts's, made on the renditions' worker threads (media/renditions.ts `runJob`), never
 * on the server's: the sounds decoded from the catalog's files (cut to onset and tail when the
 * pack asks for trim; loudness and format are the files' options, not the sprite's), brought to
 * the pack's channels (stereo unless it asks for mono), with SPRITE_GAP_SECONDS of silence
 * between two. Here: its price, size, time limit and maps, and the making of it for a ZIP (paid,
 * then run, refunded when it is not made).
 */
export { SPRITE_GAP_SECONDS, SPRITE_RATE, type SpriteEntry } from '../audio/sprite.ts';
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
  const seconds = spriteLength(sounds, choice);
  const blocks = Math.max(1, Math.ceil(seconds / RENDITION_PRICE_SECONDS));
  const weight = workWeight({ sampleRate: SPRITE_RATE, channels: spriteChannels(choice) });
  return 2 * Math.max(1, Math.ceil(RENDITION_PRICE * blocks * weight));
}

/** The sprite's four files' size, estimated from the encoders' usual rates. */
export function estimateSpriteBytes(sounds: StoredSound[], choice: RenditionChoice): number {
  const seconds = spriteLength(sounds, choice);
  const perSecond = (OGG_BYTES_PER_CHANNEL_SECOND + MP3_BYTES_PER_CHANNEL_SECOND) * spriteChannels(choice);
  return perSecond * seconds + MAP_BYTES_PER_SOUND * sounds.length;
}

/** A sprite made: where its two audio files are, and its sounds. `dispose` removes the files. */
export interface Sprite {
  oggPath: string;
  mp3Path: string;
  entries: SpriteEntry[];
  dispose(): Promise<void>;
}

/** What making a sprite runs on and pays with. */
export interface SpriteSources {
  /** The threads it is made on, reading the catalog's files. */
  renditions: Pick<RenditionService, 'runJob'>;
  /** Pays for the sprite before any work (rendition-payment.ts); its refund when making it fails. */
  pay?: () => Promise<RenditionPayment>;
}

/**
 * Makes the sprite of `sounds` (keys: their file names in the pack) in a temporary folder, paid
 * first, on a worker thread (audio/sprite.ts), for at most the time limit of its two files'
 * weighted seconds. When every thread is busy and the line is full it waits and tries again, as a
 * pack's renditions do: the ZIP asking for it has begun, so its status cannot say "busy" any more.
 * Aborting `signal` stops it (its thread too); on failure nothing is left on disk and the payment
 * is given back.
 */
export async function makeSprite(
  sounds: StoredSound[],
  keys: string[],
  choice: RenditionChoice,
  sources: SpriteSources,
  signal: AbortSignal,
): Promise<Sprite> {
  signal.throwIfAborted();
  const payment = await sources.pay?.();
  let folder: string | null = null;
  try {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-sprite-'));
    const oggPath = path.join(folder, SPRITE_FILES.ogg);
    const mp3Path = path.join(folder, SPRITE_FILES.mp3);
    const spec = spriteSpec(sounds, keys, choice);
    const weightedSeconds = 2 * spriteLength(sounds, choice) * workWeight({ channels: spec.channels });
    const job = (sourcePaths: string[]) => ({
      kind: 'sprite' as const,
      oggPath,
      mp3Path,
      spec: { ...spec, sounds: spec.sounds.map((sound, index) => ({ ...sound, sourcePath: sourcePaths[index]! })) },
    });
    const fileKeys = sounds.map((sound) => sound.fileKey);
    const result = await whenThreadFree(
      () => sources.renditions.runJob(fileKeys, job, weightedSeconds, signal),
      signal,
    );
    if (result.kind !== 'sprite') throw new Error(`sprite: unexpected ${result.kind} result`);
    const made = folder;
    return { oggPath, mp3Path, entries: result.entries, dispose: () => rm(made, { recursive: true, force: true }) };
  } catch (error) {
    if (folder) await rm(folder, { recursive: true, force: true });
    await payment?.refund();
    throw error;
  }
}

/** Seconds of the sprite, gaps included. */
function spriteLength(sounds: StoredSound[], choice: RenditionChoice): number {
  return spriteSeconds(sounds, choice) + SPRITE_GAP_SECONDS * Math.max(0, sounds.length - 1);
}

/** The worker's spec, its source paths still to be filled in. */
function spriteSpec(sounds: StoredSound[], keys: string[], choice: RenditionChoice): SpriteSpec {
  return {
    channels: spriteChannels(choice),
    sounds: sounds.map((sound, index) => ({
      sourcePath: '',
      key: keys[index]!,
      played: playedPart(sound, choice),
      loop: sound.loop !== null,
    })),
  };
}

/** The stretch of a sound the sprite plays: onset to tail when the pack is trimmed, as its renditions are. */
function playedPart(sound: StoredSound, choice: RenditionChoice): PlayedPart {
  const { onset_ms: onset, tail_ms: tail } = sound.timing;
  return choice.trim && onset !== null && tail !== null && tail > onset
    ? { trim: { startMs: onset, endMs: tail } }
    : {};
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
