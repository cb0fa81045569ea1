import type { StoredSound } from '../catalog/sound.ts';
import { isRendition, type RenditionChoice } from '../media/renditions.ts';
import { estimateRenditionBytes } from '../media/rendition-work.ts';
import type { PackOptions } from '../media/signing.ts';
import { LICENSE_TEXT } from './manifest.ts';
import { estimateSpriteBytes } from './sprite.ts';

/**
 * A ZIP entry's bytes besides its data: local header, data descriptor (ZIP64 size) and central
 * directory record with their extra fields, plus the name twice (counted apart).
 */
const ZIP_ENTRY_OVERHEAD = 160;
/** The end records, ZIP64 ones included. */
const ZIP_END_OVERHEAD = 120;
/** What one sound adds to manifest.json and manifest.csv together, about: the text of its row. */
const MANIFEST_BYTES_PER_SOUND = 900;
/** A file name's length, about: `<slug>-<id>.<ext>`. */
const NAME_BYTES = 48;
/**
 * The ZIP's size, estimated before anything is made. The catalog's files are their stored size,
 * a rendition's follows its format (media/rendition-work.ts). The entries' overhead and the
 * manifests are added at a typical row's size; a sprite at its encoders' usual rates (sprite.ts). An estimate to show a user, not a promise (the ZIP
 * streams without a Content-Length).
 */
export function estimatePackBytes(sounds: StoredSound[], choice: RenditionChoice, options: PackOptions = {}): number {
  let total = ZIP_END_OVERHEAD + 3 * ZIP_ENTRY_OVERHEAD + Buffer.byteLength(LICENSE_TEXT);
  if (options.sprite) total += 4 * ZIP_ENTRY_OVERHEAD + estimateSpriteBytes(sounds, choice);
  for (const sound of sounds) {
    total += estimateFileBytes(sound, choice) + ZIP_ENTRY_OVERHEAD + 2 * NAME_BYTES + MANIFEST_BYTES_PER_SOUND;
  }
  return Math.round(total);
}

function estimateFileBytes(sound: StoredSound, choice: RenditionChoice): number {
  return isRendition(choice) ? estimateRenditionBytes(sound, choice) : sound.fileSize;
}
