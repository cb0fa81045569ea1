import { createHash, randomBytes } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';

/**
 * The S3 server tests run against: a real one, never a mock. By default the local OpenStack Swift
 * with its S3 API that `scripts/ci/start-swift.sh` starts (and `.ci/run` starts before the tests).
 * With S3_ENDPOINT set in the test run's environment, the run's own S3_REGION,
 * S3_FORCE_PATH_STYLE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go with it instead (MinIO,
 * Ceph, ...); credentials from the environment are never sent to the local server by accident.
 *
 * What Swift's S3 API (Swift 2.30, the s3api middleware) does differently from AWS, found by
 * trying each against it; a media store that works here and on AWS keeps to the common part:
 * - Bucket addressing: path style only (`forcePathStyle: true`); there is no DNS for virtual hosts.
 * - Checksums: since early 2025 the AWS SDK adds CRC checksums to every upload and, for a stream
 *   body, sends it in `aws-chunked` encoding with a trailer; Swift answers 501 ("aws-chunked is
 *   not supported"). `requestChecksumCalculation` and `responseChecksumValidation` set to
 *   `WHEN_REQUIRED` keep plain bodies; AWS and other stores accept those too.
 * - DeleteObjects: Swift requires a `Content-MD5` header, which the SDK no longer sends (it sends a
 *   CRC32 instead), so the request is refused with 400 InvalidRequest without it. `s3Client()`
 *   adds the header with a small middleware (`addContentMd5ToDeleteObjects`); the media store's
 *   client needs the same. A key that does not exist is reported as deleted, as on AWS.
 * - Conditional writes: `PutObject` with `IfNoneMatch: '*'` answers 501 NotImplemented. "Write
 *   only if absent" (a rendition made once by whichever instance comes first) cannot rely on the
 *   store: decide it elsewhere (the database, a lock) or make the write idempotent (same key, same
 *   bytes, last writer wins).
 * - Ranges: `bytes=a-b`, `bytes=a-` and `bytes=-n` answer 206 with `Content-Range`; a range that
 *   starts past the end answers 416 InvalidRange; one that ends past it is cut to the end.
 * - Presigned URLs: a presigned GET is refused for HEAD (403, as on AWS: the method is signed),
 *   so a HEAD on a media URL should be answered by the service (HeadObject) or redirect to a
 *   presigned HeadObject URL. `X-Amz-Expires` is enforced (403 "Request has expired");
 *   `ResponseContentDisposition` and a Range header on the presigned URL work.
 * - Errors: a missing object is 404 `NoSuchKey` on GET but 404 `NotFound` with no body on HEAD
 *   (as on AWS); a missing bucket on HeadBucket is 404 `NotFound`; deleting a bucket that still
 *   holds objects is 409 `BucketNotEmpty`. Bucket names must be DNS-compatible (lowercase).
 * - Multipart uploads (`@aws-sdk/lib-storage`): parts of 5 MiB or more (Swift's minimum segment,
 *   AWS's minimum part); the ETag of the whole is `"<md5 of part md5s>-<parts>"`, not its MD5.
 *   A body under one part goes as a single PutObject.
 * - Object metadata (`Metadata`, `ContentType`, `CacheControl`) is kept and returned by HEAD and
 *   GET. Listings (ListObjectsV2 with Prefix, Delimiter, MaxKeys and continuation) behave as on AWS,
 *   and on this single node a new object is listed at once.
 */
export interface S3Settings {
  endpoint: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

const fromRun = process.env.S3_ENDPOINT !== undefined;

/** The local Swift's address and tempauth's test account (scripts/ci/start-swift.sh). */
export const S3_SERVER: S3Settings = fromRun
  ? {
      endpoint: process.env.S3_ENDPOINT!,
      region: process.env.S3_REGION ?? 'us-east-1',
      forcePathStyle: process.env.S3_FORCE_PATH_STYLE !== 'false',
      accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? '',
      secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? '',
    }
  : {
      endpoint: 'http://127.0.0.1:8480',
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'test:tester',
      secretAccessKey: 'testing',
    };

/** An S3 client for the test server, set up for Swift's differences (see above). */
export function s3Client(settings: S3Settings = S3_SERVER): S3Client {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A server that is down should fail a test at once, not after the SDK's retries.
    maxAttempts: 1,
  });
  addContentMd5ToDeleteObjects(client);
  return client;
}

/**
 * Swift refuses DeleteObjects without `Content-MD5`. The header is added once the body is
 * serialized ("build" comes after "serialize") and before the request is signed ("finalize"),
 * so the signature covers it.
 */
export function addContentMd5ToDeleteObjects(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as { headers?: Record<string, string>; body?: unknown };
      if (
        context.commandName === 'DeleteObjectsCommand' &&
        request.headers &&
        (typeof request.body === 'string' || request.body instanceof Uint8Array)
      ) {
        request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
      }
      return next(args);
    },
    { step: 'build', name: 'addContentMd5ToDeleteObjects' },
  );
}

/**
 * Why the S3 server cannot be used, as a skip reason, or false when it answers. In CI (CI=true)
 * a server that does not answer fails the run instead: the S3 tests never pass by not running.
 */
export async function s3ServerMissing(settings: S3Settings = S3_SERVER): Promise<string | false> {
  const client = s3Client(settings);
  try {
    await client.send(new ListBucketsCommand({}), { abortSignal: AbortSignal.timeout(5000) });
    return false;
  } catch (error) {
    const problem = `S3 at ${settings.endpoint}: ${(error as Error).name}: ${(error as Error).message}`;
    if (process.env.CI === 'true')
      throw new Error(`the S3 tests need their server (scripts/ci/start-swift.sh): ${problem}`);
    return `no S3 server to test against (start one with scripts/ci/start-swift.sh; ${problem})`;
  } finally {
    client.destroy();
  }
}

export interface TestBucket {
  /** The bucket's name, fresh for this test. */
  name: string;
  /** A client for the test server (one per bucket; `remove` closes it). */
  client: S3Client;
  /** The settings that point a server or command at this bucket, as an operator would set them. */
  env: Record<string, string>;
  /** Deletes every object and unfinished upload in the bucket, then the bucket; closes the client. */
  remove(): Promise<void>;
}

/** A new, empty bucket of its own for one test; call `remove()` after it (in `after` or `finally`). */
export async function createTestBucket(settings: S3Settings = S3_SERVER): Promise<TestBucket> {
  const client = s3Client(settings);
  const name = `sc-test-${randomBytes(8).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: name }));
  return {
    name,
    client,
    env: {
      S3_BUCKET: name,
      S3_ENDPOINT: settings.endpoint,
      S3_REGION: settings.region,
      S3_FORCE_PATH_STYLE: String(settings.forcePathStyle),
      AWS_ACCESS_KEY_ID: settings.accessKeyId,
      AWS_SECRET_ACCESS_KEY: settings.secretAccessKey,
    },
    async remove() {
      try {
        await abortUploads(client, name);
        await emptyBucket(client, name);
        await client.send(new DeleteBucketCommand({ Bucket: name }));
      } finally {
        client.destroy();
      }
    },
  };
}

/** Deletes every object in a bucket, a listing page (at most 1,000 keys) per DeleteObjects call. */
async function emptyBucket(client: S3Client, bucket: string): Promise<void> {
  for (;;) {
    // Always the first page: the objects listed before are gone by the next turn.
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const objects = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
    if (objects.length === 0) return;
    const answer = await client.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }),
    );
    if (answer.Errors?.length)
      throw new Error(
        `could not empty bucket ${bucket}: ${answer.Errors.map((e) => `${e.Key}: ${e.Code}`).join(', ')}`,
      );
  }
}

/** Aborts the multipart uploads a test left unfinished: their parts would keep the bucket. */
async function abortUploads(client: S3Client, bucket: string): Promise<void> {
  const { Uploads = [] } = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  for (const upload of Uploads)
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
}
