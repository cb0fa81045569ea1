import type { OutputFormat } from '../../audio/encode/output-format.ts';
import { flacHead } from './flac.ts';
import { mp3Head } from './id3.ts';
import { oggHead } from './ogg.ts';
import { wavHead } from './riff.ts';
import type { FileTags } from './file-tags.ts';

export { fileTagsOf, type FileTags, type SoundLoop, type TagSound } from './file-tags.ts';
export { mp3SampleRate } from './id3.ts';
export { HeadIncompleteError, UnknownHeadError } from './bytes.ts';

/**
 * Metadata written into a delivered file at delivery, never into the stored file: renditions are
 * shared by content between sounds and a sound's metadata changes. Each container's writer reads
 * the head of the stored file (what comes before its first byte of audio) and returns a new head
 * holding the tags; the delivered file is `head` followed by the stored bytes from `audioStart`.
 *
 * Written here rather than with a library: the maintained ones (wavefile, node-id3, flac-metadata
 * parsers) load or rewrite a whole file, or write ID3v2.3 only, while this splices a head in front
 * of a stream that is never read whole.
 */
export interface TaggedHead {
  head: Buffer;
  /** Where in the stored file the unchanged rest begins. */
  audioStart: number;
}

/** Bytes of a stored file read first to find its head; a head longer than this is read again at HEAD_MAX_BYTES. */
export const HEAD_FIRST_BYTES = 16 * 1024;
/** A stored head longer than this is not ours: the file is served as stored. */
export const HEAD_MAX_BYTES = 1024 * 1024;

/**
 * The new head of a delivered file in `format` whose stored file begins with `storedHead` (and is
 * `storedSize` bytes long). Throws HeadIncompleteError when `storedHead` ends before the head
 * does (read more and call again), UnknownHeadError when the bytes are not such a file.
 */
export function tagHead(format: OutputFormat, storedHead: Buffer, storedSize: number, tags: FileTags): TaggedHead {
  switch (format) {
    case 'wav':
      return wavHead(storedHead, storedSize, tags);
    case 'flac':
      return flacHead(storedHead, tags);
    case 'ogg':
    case 'opus':
      return oggHead(storedHead, tags);
    case 'mp3':
      return mp3Head(storedHead, tags);
  }
}
