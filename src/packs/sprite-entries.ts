import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type yazl from 'yazl';
import type { StoredSound } from '../catalog/sound.ts';
import type { RenditionChoice } from '../media/renditions.ts';
import { howlerMap, makeSprite, phaserMap, SPRITE_FILES, type Sprite, type SpriteSources } from './sprite.ts';

/**
 * Adds a pack's sprite to its ZIP after the sounds: sprite.ogg, sprite.mp3 and the Howler.js and
 * Phaser maps. The sprite is made (on a worker thread: sprite.ts) when its first entry's turn
 * comes (so a client that leaves before never pays for it), read from its temporary files, which go when the ZIP's stream
 * closes, whole or not. Keys in the maps are the sounds' file names in the pack without their
 * extension.
 */
export function addSpriteEntries(
  zip: yazl.ZipFile,
  output: Readable,
  sounds: StoredSound[],
  fileNames: string[],
  choice: RenditionChoice,
  renditions: SpriteSources['renditions'],
  signal: AbortSignal,
  pay: SpriteSources['pay'],
  entry: { mtime: Date; forceZip64Format: boolean },
): void {
  const keys = fileNames.map((name) => name.replace(/\.[^.]+$/, ''));
  let made: Promise<Sprite> | null = null;
  const sprite = () => {
    made ??= makeSprite(sounds, keys, choice, { renditions, pay }, signal);
    return made;
  };
  output.once('close', () => {
    made?.then(
      (done) => done.dispose(),
      () => {},
    );
  });
  const add = (name: string, compress: boolean, open: (done: Sprite) => Readable) =>
    zip.addReadStreamLazy(name, { ...entry, compress }, (callback) => {
      sprite().then(
        (done) => callback(null, open(done)),
        (error: Error) => callback(error, null as unknown as Readable),
      );
    });
  add(SPRITE_FILES.ogg, false, (done) => createReadStream(done.oggPath));
  add(SPRITE_FILES.mp3, false, (done) => createReadStream(done.mp3Path));
  add(SPRITE_FILES.howler, true, (done) => Readable.from([howlerMap(done.entries)]));
  add(SPRITE_FILES.phaser, true, (done) => Readable.from([phaserMap(done.entries)]));
}
