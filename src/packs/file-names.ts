import type { Sound } from '../catalog/sound.ts';
import { ucsCatIdOf } from '../catalog/ucs-catid.ts';
import { packFileName } from './manifest.ts';

/** How a pack names its files: `<name-slug>-<id>.<ext>` (default), or the Universal Category System's way. */
export type PackNaming = 'default' | 'ucs';

/**
 * UCS's CreatorID and SourceID. The configuration names no operator nor library, so both are the
 * catalog's own name; they are constants here so that one setting can replace them later.
 */
export const UCS_CREATOR = 'SoundCatalog';
export const UCS_SOURCE = 'SoundCatalog';
/** UCS asks for a short FXName; cut at a word's end within this many characters. */
export const FX_NAME_MAX = 30;

/** Every sound's file name in the pack, in order: unique within it, whatever the case of a file system. */
export function packFileNames(
  sounds: Array<Pick<Sound, 'id' | 'name' | 'tags' | 'category'>>,
  extension: string,
  naming: PackNaming = 'default',
): string[] {
  if (naming === 'default') return sounds.map((sound) => packFileName(sound.name, sound.id, extension));
  const taken = new Set<string>();
  return sounds.map((sound) => {
    const catId = ucsCatIdOf(sound);
    const fxName = ucsFxName(sound.name);
    for (let copy = 1; ; copy++) {
      const name = `${catId}_${copy === 1 ? fxName : `${fxName} ${copy}`}_${UCS_CREATOR}_${UCS_SOURCE}.${extension}`;
      // Case-insensitive file systems (macOS, Windows) would take "Boom" and "BOOM" for one file.
      if (taken.has(name.toLowerCase())) continue;
      taken.add(name.toLowerCase());
      return name;
    }
  });
}

/**
 * A name as UCS's FXName: ASCII letters and digits in Title Case words separated by single
 * spaces (accents dropped, punctuation and underscores gone, since `_` separates UCS's fields),
 * cut at a word's end within FX_NAME_MAX characters; "Sound" when nothing is left.
 */
export function ucsFxName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9\s-]/g, ' ')
    .split(/[\s-]+/)
    .filter((word) => word.length > 0)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  let fxName = '';
  for (const word of words) {
    const longer = fxName === '' ? word : `${fxName} ${word}`;
    if (longer.length > FX_NAME_MAX) break;
    fxName = longer;
  }
  // One word longer than the bound on its own is cut.
  if (fxName === '' && words.length > 0) fxName = words[0]!.slice(0, FX_NAME_MAX);
  return fxName === '' ? 'Sound' : fxName;
}
