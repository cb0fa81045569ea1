import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createTestBucket, s3Client, s3ServerMissing, type TestBucket } from '../../helpers/s3.ts';

// The S3 server the media tests use answers every call the media store makes, with the settings
// of test/helpers/s3.ts. Skipped with a message when no server runs locally; in CI it must run.
const skip = await s3ServerMissing();

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('ci.s3-server: the test S3 server stores, serves and deletes media as the store needs', { skip }, () => {
  let bucket: TestBucket;
  before(async () => {
    bucket = await createTestBucket();
  });
  after(async () => {
    await bucket?.remove();
  });

  const mp3 = randomBytes(4096);

  test('s3-server.put-get-head: an object comes back whole, by range, and described', async () => {
    const { client, name } = bucket;
    await client.send(
      new PutObjectCommand({
        Bucket: name,
        Key: 'originals/kick.mp3',
        Body: mp3,
        ContentType: 'audio/mpeg',
        Metadata: { 'integrated-lufs': '-14.5' },
      }),
    );

    const whole = await client.send(new GetObjectCommand({ Bucket: name, Key: 'originals/kick.mp3' }));
    assert.equal(sha256(await whole.Body!.transformToByteArray()), sha256(mp3));

    const part = await client.send(
      new GetObjectCommand({ Bucket: name, Key: 'originals/kick.mp3', Range: 'bytes=100-1123' }),
    );
    assert.equal(part.$metadata.httpStatusCode, 206);
    assert.equal(part.ContentRange, `bytes 100-1123/${mp3.length}`);
    assert.deepEqual(Buffer.from(await part.Body!.transformToByteArray()), mp3.subarray(100, 1124));

    const head = await client.send(new HeadObjectCommand({ Bucket: name, Key: 'originals/kick.mp3' }));
    assert.equal(head.ContentLength, mp3.length);
    assert.equal(head.ContentType, 'audio/mpeg');
    assert.deepEqual(head.Metadata, { 'integrated-lufs': '-14.5' });
    assert.equal(head.ETag, `"${createHash('md5').update(mp3).digest('hex')}"`);

    await assert.rejects(client.send(new GetObjectCommand({ Bucket: name, Key: 'originals/missing.mp3' })), {
      name: 'NoSuchKey',
    });
  });

  test('s3-server.multipart: a file of three parts uploads with lib-storage and reads back byte for byte', async () => {
    const { client, name } = bucket;
    const big = randomBytes(11 * 1024 * 1024 + 17);
    const upload = new Upload({
      client,
      params: { Bucket: name, Key: 'originals/long.wav', Body: big },
      partSize: 5 * 1024 * 1024,
      queueSize: 2,
    });
    const done = await upload.done();
    assert.match(done.ETag ?? '', /-3"$/, 'three parts, and the ETag of a multipart object says so');

    const read = await client.send(new GetObjectCommand({ Bucket: name, Key: 'originals/long.wav' }));
    assert.equal(read.ContentLength, big.length);
    assert.equal(sha256(await read.Body!.transformToByteArray()), sha256(big));
    const tail = await client.send(
      new GetObjectCommand({ Bucket: name, Key: 'originals/long.wav', Range: 'bytes=-5' }),
    );
    assert.deepEqual(Buffer.from(await tail.Body!.transformToByteArray()), big.subarray(big.length - 5));
  });

  test('s3-server.presign: a presigned GET is fetched with plain fetch, whole and by range', async () => {
    const { client, name } = bucket;
    await client.send(
      new PutObjectCommand({ Bucket: name, Key: 'renditions/kick-16.mp3', Body: mp3, ContentType: 'audio/mpeg' }),
    );
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: name, Key: 'renditions/kick-16.mp3' }), {
      expiresIn: 60,
    });

    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-type'), 'audio/mpeg');
    assert.equal(sha256(new Uint8Array(await whole.arrayBuffer())), sha256(mp3));

    const part = await fetch(url, { headers: { range: 'bytes=0-9' } });
    assert.equal(part.status, 206);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), mp3.subarray(0, 10));

    const tampered = new URL(url);
    tampered.pathname = tampered.pathname.replace('kick-16', 'kick-17');
    assert.equal((await fetch(tampered)).status, 403, 'the signature covers the key');
  });

  test('s3-server.list-delete: listing by prefix, then DeleteObjects removes every listed key', async () => {
    const { client, name } = bucket;
    const listed = await client.send(new ListObjectsV2Command({ Bucket: name, Prefix: 'originals/' }));
    assert.deepEqual(listed.Contents?.map((object) => object.Key).sort(), ['originals/kick.mp3', 'originals/long.wav']);
    const folders = await client.send(new ListObjectsV2Command({ Bucket: name, Delimiter: '/' }));
    assert.deepEqual(folders.CommonPrefixes?.map((prefix) => prefix.Prefix).sort(), ['originals/', 'renditions/']);

    const keys = ['originals/kick.mp3', 'originals/long.wav', 'renditions/kick-16.mp3'];
    const deleted = await client.send(
      new DeleteObjectsCommand({ Bucket: name, Delete: { Objects: keys.map((Key) => ({ Key })) } }),
    );
    assert.deepEqual(deleted.Errors ?? [], []);
    assert.deepEqual(deleted.Deleted?.map((object) => object.Key).sort(), keys);
    assert.equal((await client.send(new ListObjectsV2Command({ Bucket: name }))).KeyCount, 0);
  });
});

test('ci.s3-bucket: a test bucket is removed with its objects and unfinished uploads', { skip }, async () => {
  const bucket = await createTestBucket();
  const { client, name } = bucket;
  let removed = false;
  try {
    await client.send(new PutObjectCommand({ Bucket: name, Key: 'a.mp3', Body: 'a' }));
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: name, Key: 'b.wav' }));
    await client.send(
      new UploadPartCommand({ Bucket: name, Key: 'b.wav', UploadId, PartNumber: 1, Body: randomBytes(1024) }),
    );
    await bucket.remove();
    removed = true;
  } finally {
    if (!removed) await bucket.remove();
  }
  const other = s3Client();
  try {
    await assert.rejects(other.send(new HeadBucketCommand({ Bucket: name })), { name: 'NotFound' });
  } finally {
    other.destroy();
  }
});
