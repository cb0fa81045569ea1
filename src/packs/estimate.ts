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
 * The rate and channels assumed for a rendition that keeps the sound's own: the catalog does not
 * record them, and reading every MP3's header would cost a file read per sound before the answer.
 * Its MP3s keep their source's rate and channels, most often 44.1 kHz stereo.
 */
const USUAL_RATE = 44_100;
const USUAL_CHANNELS = 2;
/** A WAV file's header before its samples (RIFF, fmt and data chunks; WAVE_FORMAT_EXTENSIBLE for 24 bits). */
const WAV_HEADER_BYTES = 68;
/**
 * FLAC's share of the same PCM, about: the synthesized sounds shrink to under half
 * (docs/performance.md, packs), recordings with a noise floor keep more.
 */
const FLAC_SHARE_OF_PCM = 0.5;
/**
 * Bytes per second per channel of the lossy encoders as configured (audio/encode/): libvorbis at
 * quality 6 is about 190 kbit/s for stereo, libopus is set to 64 kbit/s per channel; Ogg's pages
 * add a little to each.
 */
const VORBIS_BYTES_PER_CHANNEL_SECOND = 96_000 / 8;
const OPUS_BYTES_PER_CHANNEL_SECOND = 66_000 / 8;

/**
 * The ZIP's size, estimated before anything is made. The catalog's files are their stored size.
 * A rendition's size follows its format: WAV is its rate x channels x depth x seconds; FLAC a share
 * of that; Vorbis and Opus their encoders' bit rates per channel; an MP3 rendition the original's
 * bytes per second, since it is encoded as the original was. Seconds are the part kept (all, or
 * onset to tail when trimmed). The entries' overhead and the manifests are added at a typical
 * row's size. An estimate to show a user, not a promise (the ZIP streams without a Content-Length).
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
  const { onset_ms: onset, tail_ms: tail } = sound.timing;
  const kept = choice.trim && onset !== null && tail !== null && tail > onset ? (tail - onset) / 1000 : sound.duration;
  const seconds = Math.min(kept, choice.maxSeconds ?? kept);
  const channels = choice.channels ?? USUAL_CHANNELS;
  const pcmBytesPerSecond = (choice.sampleRate ?? USUAL_RATE) * channels * ((choice.bitDepth ?? 16) / 8);
  switch (choice.format) {
    case 'wav': return WAV_HEADER_BYTES + pcmBytesPerSecond * seconds;
    case 'flac': return FLAC_SHARE_OF_PCM * pcmBytesPerSecond * seconds;
    case 'ogg': return VORBIS_BYTES_PER_CHANNEL_SECOND * channels * seconds;
    // Opus has one rate, 48 kHz, so only the channels change its size.
    case 'opus': return OPUS_BYTES_PER_CHANNEL_SECOND * channels * seconds;
    case undefined: return (sound.fileSize / sound.duration) * seconds;
  }
}
