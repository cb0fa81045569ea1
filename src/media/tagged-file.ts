import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { OutputFormat } from '../audio/encode/output-format.ts';
import type { StoredSound } from '../catalog/sound.ts';
import { knownUcsCatIdOf } from '../catalog/ucs-catid.ts';
import { playedPartOf, type RenditionChoice } from './renditions.ts';
import type { ByteRange, MediaStore } from './store.ts';
import {
  type FileTags,
  fileTagsOf,
  HEAD_FIRST_BYTES,
  HEAD_MAX_BYTES,
  HeadIncompleteError,
  mp3SampleRate,
  tagHead,
  UnknownHeadError,
} from './tags/index.ts';

/**
 * A stored file as it is delivered: a head of the sound's tags, then the stored bytes from
 * `audioStart` on. `head` is null for a file served as stored (one whose head is not of its format).
 */
export interface DeliveredFile {
  /** The delivered file's size in bytes. */
  size: number;
  head: Buffer | null;
  audioStart: number;
  /** A short hash of the head, which the ETag carries: the tags change, the ETag changes. */
  variant: string | null;
}

type Reader = Pick<MediaStore, 'read'>;

/** The tags of `sound`'s file in `choice`: its loop and markers placed where the rendition plays them. */
export async function tagsForDelivery(
  files: Reader,
  sound: StoredSound,
  choice: RenditionChoice,
  baseUrl: string,
): Promise<FileTags> {
  const loop = sound.loop;
  // Only a loop counts in source frames, and only a rendition's file can carry one (ID3 has no loop).
  let sourceRate: number | null = null;
  if (loop && choice.format !== undefined) {
    try {
      sourceRate = mp3SampleRate(await readHead(files, sound.fileKey, Math.min(sound.fileSize, HEAD_FIRST_BYTES)));
    } catch (error) {
      if (!(error instanceof UnknownHeadError || error instanceof HeadIncompleteError)) throw error;
    }
  }
  return fileTagsOf(sound, {
    baseUrl,
    loop,
    sourceRate,
    played: playedPartOf(sound, choice),
    catId: knownUcsCatIdOf(sound),
  });
}

/**
 * How the stored file under `fileKey` (`storedSize` bytes) is delivered with `tags`: its head read
 * (a few KiB, more only for a longer head) and a new one made. A file whose head is not of
 * `format` is delivered as stored.
 */
export async function deliveredFile(
  files: Reader,
  fileKey: string,
  storedSize: number,
  format: OutputFormat,
  tags: FileTags,
): Promise<DeliveredFile> {
  let length = Math.min(storedSize, HEAD_FIRST_BYTES);
  for (;;) {
    const stored = await readHead(files, fileKey, length);
    try {
      const { head, audioStart } = tagHead(format, stored, storedSize, tags);
      const variant = createHash('sha256').update(head).digest('base64url').slice(0, 11);
      return { size: head.length + storedSize - audioStart, head, audioStart, variant };
    } catch (error) {
      const more =
        error instanceof HeadIncompleteError &&
        error.needed <= Math.min(storedSize, HEAD_MAX_BYTES) &&
        error.needed > length;
      if (more) {
        length = Math.min(storedSize, HEAD_MAX_BYTES, Math.max(error.needed, 2 * length));
        continue;
      }
      if (error instanceof HeadIncompleteError || error instanceof UnknownHeadError)
        return { size: storedSize, head: null, audioStart: 0, variant: null };
      throw error;
    }
  }
}

/** The delivered file's bytes, or an inclusive range of them: from the head, then from the store. */
export async function readDelivered(
  files: Reader,
  fileKey: string,
  file: DeliveredFile,
  range: ByteRange = { start: 0, end: file.size - 1 },
): Promise<Readable> {
  const head = file.head;
  if (head === null) return files.read(fileKey, range);
  const fromHead = head.subarray(Math.min(range.start, head.length), Math.min(range.end + 1, head.length));
  if (range.end < head.length) return Readable.from([fromHead]);
  const rest = await files.read(fileKey, {
    start: file.audioStart + Math.max(0, range.start - head.length),
    end: file.audioStart + range.end - head.length,
  });
  const body = Readable.from(concatenated(fromHead, rest));
  // A body destroyed before it was read (a client gone) never starts the generator: the store's stream closes here.
  body.once('close', () => rest.destroy());
  return body;
}

async function* concatenated(first: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  try {
    if (first.length > 0) yield first;
    for await (const chunk of rest) yield chunk as Buffer;
  } finally {
    rest.destroy();
  }
}

async function readHead(files: Reader, fileKey: string, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of await files.read(fileKey, { start: 0, end: length - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
