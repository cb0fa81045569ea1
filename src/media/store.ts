import type { Readable } from 'node:stream';

/** What the store knows of a stored file without reading it: enough for conditional GET and for checking a copy. */
export interface MediaStat {
  size: number;
  modified: Date;
  /** The MD5 of the bytes as hex, where the store keeps one (S3); null where it would have to read the file. */
  md5: string | null;
}

/** A stored file on local disk for a worker thread to read; `release` removes it when it is a copy. */
export interface LocalCopy {
  path: string;
  release(): Promise<void>;
}

/** An inclusive byte range, as HTTP Range and S3 GetObject count them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where the service keeps every media file it delivers (originals and renditions): a folder on
 * local disk (folder-store.ts) or an S3 bucket (s3-store.ts), chosen in wiring.ts by S3_BUCKET.
 * Keys are made by the service (from content hashes), never from a URL. Nothing above this
 * interface knows which backend it has.
 */
export interface MediaStore {
  /** How /readyz and start-up errors name it ("media folder /data/audio", "S3 bucket media"). */
  readonly description: string;
  /** Stores bytes under a key, whole or not at all. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Stores a finished local file under a key: moved (the local file is gone after) or copied. */
  putFile(key: string, sourcePath: string, move: boolean): Promise<void>;
  /** A fresh local scratch file name for workers to write into (encodes, renditions), removed by whoever made it. */
  temporaryPath(): string;
  /** Makes the scratch folder and clears what processes that are gone left in it. */
  prepareScratchFolder(): Promise<void>;
  /** Null when no file is stored under the key. */
  stat(key: string): Promise<MediaStat | null>;
  /** The stored file's size in bytes; null when there is none. */
  size(key: string): Promise<number | null>;
  /** The bytes, or a range of them; rejects with MediaMissingError when the key holds nothing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The file on local disk for a worker thread: the file itself for a folder, a downloaded copy for S3. */
  localCopy(key: string): Promise<LocalCopy>;
  remove(key: string): Promise<void>;
  /**
   * Where to send a client instead of streaming the file: a URL the store itself answers a GET of
   * this key on, for `expiresInSeconds` at most (S3 with MEDIA_REDIRECT); null to stream it.
   * `disposition` is the Content-Disposition the store is to answer with.
   */
  redirectUrl(key: string, expiresInSeconds: number, disposition?: string): Promise<string | null>;
  /** Resolves when the store answers; rejects with a MediaStoreError that says what is wrong in one line. */
  ready(): Promise<void>;
  /** Lets go of connections (S3's sockets). */
  close(): void;
}

/** The store is misconfigured or does not answer: the message is one line for an operator. */
export class MediaStoreError extends Error {}

/** The store does not answer now (network, 5xx): media answers 503 and the client tries again later. */
export class MediaUnavailableError extends MediaStoreError {}

/** Nothing is stored under the key (anymore). */
export class MediaMissingError extends Error {
  constructor(readonly key: string) {
    super(`nothing stored under ${key}`);
  }
}
