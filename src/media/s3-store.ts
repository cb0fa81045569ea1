import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config.ts';
import { ScratchFolder } from './folder-store.ts';
import { S3_BOUNDS, s3Pools, type S3Bounds, type S3Pools } from './s3-pools.ts';
import { FORMATS } from '../audio/encode/output-format.ts';
import {
  MediaMissingError,
  MediaStoreError,
  MediaUnavailableError,
  type ByteRange,
  type LocalCopy,
  type MediaStat,
  type MediaStore,
} from './store.ts';

/** The longest a presigned URL may live: S3's own limit for SigV4 (7 days). */
const MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;

/**
 * Media files in an S3 bucket (AWS S3 or a compatible store), under S3_PREFIX. Credentials come
 * from the AWS SDK's standard chain. Each object carries the MD5 of its bytes in its metadata:
 * the ETag is the MD5 only for single-part uploads, and `media copy` verifies every object.
 * Requests go through three bounded pools of sockets, by whose pace they go at (s3-pools.ts).
 */
export class S3Store implements MediaStore {
  readonly description: string;
  private readonly pools: S3Pools;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly scratch: ScratchFolder;

  /**
   * With `redirect` (MEDIA_REDIRECT), media URLs answer 302 to a presigned GET of the object.
   * `bounds` changes the pools' defaults (S3_BOUNDS): serve gives MAX_CONNECTIONS stream sockets.
   */
  constructor(
    settings: S3Config,
    dataDir: string,
    private readonly redirect = false,
    bounds: Partial<S3Bounds> = {},
  ) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
    this.description = `S3 bucket ${settings.bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
    this.pools = s3Pools(settings, { ...S3_BOUNDS, ...bounds });
    this.scratch = new ScratchFolder(path.join(dataDir, 'audio', '.tmp'));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const md5 = createHash('md5').update(bytes);
    await this.call(
      this.pools.uploads.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Body: bytes,
          ContentType: contentTypeOfKey(key),
          // The store checks the bytes it received against this and refuses a damaged upload.
          ContentMD5: md5.copy().digest('base64'),
          Metadata: { md5: md5.digest('hex') },
        }),
      ),
    );
  }

  /** Uploads in parts when large (lib-storage); an interrupted upload leaves no object. */
  async putFile(key: string, sourcePath: string, move: boolean): Promise<void> {
    const md5 = await md5OfFile(sourcePath);
    const upload = new Upload({
      client: this.pools.uploads,
      params: {
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(sourcePath),
        ContentType: contentTypeOfKey(key),
        Metadata: { md5 },
      },
    });
    await this.call(upload.done());
    if (move) await rm(sourcePath, { force: true });
  }

  temporaryPath(): string {
    return this.scratch.path();
  }

  prepareScratchFolder(): Promise<void> {
    return this.scratch.prepare();
  }

  async stat(key: string): Promise<MediaStat | null> {
    try {
      const head = await this.pools.control.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return {
        size: head.ContentLength ?? 0,
        modified: head.LastModified ?? new Date(0),
        md5: head.Metadata?.md5 ?? md5OfEtag(head.ETag),
      };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw this.explain(error);
    }
  }

  async size(key: string): Promise<number | null> {
    return (await this.stat(key))?.size ?? null;
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.pools.streams.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (statusOf(error) === 404) throw new MediaMissingError(key);
      throw this.explain(error);
    }
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const copy = this.temporaryPath();
    const release = () => rm(copy, { force: true });
    try {
      await mkdir(path.dirname(copy), { recursive: true });
      await pipeline(await this.read(key), createWriteStream(copy));
    } catch (error) {
      await release();
      throw error;
    }
    return { path: copy, release };
  }

  async remove(key: string): Promise<void> {
    await this.call(
      this.pools.control.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })),
    );
  }

  async redirectUrl(key: string, expiresInSeconds: number, disposition?: string): Promise<string | null> {
    if (!this.redirect) return null;
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ResponseContentType: contentTypeOfKey(key),
      ...(disposition !== undefined && { ResponseContentDisposition: disposition }),
    });
    return getSignedUrl(this.pools.control, command, {
      expiresIn: Math.min(MAX_PRESIGNED_SECONDS, Math.max(1, Math.floor(expiresInSeconds))),
    });
  }

  async ready(): Promise<void> {
    await this.call(this.pools.control.send(new HeadBucketCommand({ Bucket: this.bucket })));
  }

  close(): void {
    for (const client of Object.values(this.pools)) client.destroy();
  }

  private objectKey(key: string): string {
    if (key.startsWith('/') || key.split('/').includes('..')) throw new Error(`file key outside the store: ${key}`);
    return this.prefix + key;
  }

  private async call<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      throw this.explain(error);
    }
  }

  /**
   * The SDK's error as one line an operator can act on: missing bucket, refused credentials, or a
   * store that does not answer.
   */
  private explain(error: unknown): Error {
    const status = statusOf(error);
    const name = (error as Error).name;
    if (status === 404 && (name === 'NoSuchBucket' || name === 'NotFound'))
      return new MediaStoreError(`the ${this.description} does not exist`);
    if (
      status === 403 ||
      status === 401 ||
      ['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'CredentialsProviderError'].includes(name)
    ) {
      return new MediaStoreError(
        `the ${this.description} refused the credentials (${name}); set AWS_ACCESS_KEY_ID and ` +
          `AWS_SECRET_ACCESS_KEY or another source of the AWS SDK`,
      );
    }
    if (status === undefined || status >= 500)
      return new MediaUnavailableError(`the ${this.description} does not answer: ${(error as Error).message || name}`);
    return error as Error;
  }
}

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException
    ? error.$metadata.httpStatusCode
    : (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/** A single-part upload's ETag is the MD5 of its bytes; a multipart one's (with `-N`) is not. */
function md5OfEtag(etag: string | undefined): string | null {
  const bare = etag?.replace(/"/g, '') ?? '';
  return /^[0-9a-f]{32}$/.test(bare) ? bare : null;
}

export async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The media type of a stored file, by its key's extension (originals are MP3; renditions any format). */
function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1);
  return (
    Object.values(FORMATS).find((format) => format.extension === extension)?.contentType ?? 'application/octet-stream'
  );
}
