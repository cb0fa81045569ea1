import type { StoredSound } from '../catalog/sound.ts';
import { isRendition, type RenditionChoice } from '../media/renditions.ts';
import { LICENSE_TEXT } from './manifest.ts';

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
 * The ZIP's size, estimated before anything is made: the catalog's files are their stored size;
 * a rendition in MP3 is the original's bytes per second over the part it keeps (all, or onset to
 * tail when trimmed), since renditions are encoded as the originals were. The entries' overhead
 * and the manifests are added at a typical row's size. An estimate to show a user, not a promise
 * (the ZIP streams without a Content-Length).
 */
export function estimatePackBytes(sounds: StoredSound[], choice: RenditionChoice): number {
  let total = ZIP_END_OVERHEAD + 3 * ZIP_ENTRY_OVERHEAD + Buffer.byteLength(LICENSE_TEXT);
  for (const sound of sounds) {
    total += estimateFileBytes(sound, choice) + ZIP_ENTRY_OVERHEAD + 2 * NAME_BYTES + MANIFEST_BYTES_PER_SOUND;
  }
  return Math.round(total);
}

function estimateFileBytes(sound: StoredSound, choice: RenditionChoice): number {
  if (!isRendition(choice) || sound.duration <= 0) return sound.fileSize;
  const bytesPerSecond = sound.fileSize / sound.duration;
  const { onset_ms: onset, tail_ms: tail } = sound.timing;
  const kept = choice.trim && onset !== null && tail !== null && tail > onset ? (tail - onset) / 1000 : sound.duration;
  return bytesPerSecond * Math.min(kept, choice.maxSeconds ?? kept);
}
