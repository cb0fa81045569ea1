import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { runCli } from '../helpers/cli.ts';
import { withoutId3 } from '../helpers/id3.ts';
import { createTestBucket, S3_SERVER, s3ServerMissing, type TestBucket } from '../helpers/s3.ts';
import { startServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';
import { signedUrl } from './helpers.ts';

const skip = await s3ServerMissing();

async function objectKeys(bucket: TestBucket): Promise<string[]> {
  const page = await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.name }));
  return (page.Contents ?? []).map((object) => object.Key!).sort();
}

async function objectBytes(bucket: TestBucket, key: string): Promise<Uint8Array> {
  const answer = await bucket.client.send(new GetObjectCommand({ Bucket: bucket.name, Key: key }));
  return answer.Body!.transformToByteArray();
}

const _md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

describe('media in an S3 bucket', { skip }, () => {
  test(
    'media.s3.store: a sound put goes into the bucket under ' + 'the prefix, and its URL serves exact ranges from it',
    async () => {
      const bucket = await createTestBucket();
      const server = await startServer({ env: { ...bucket.env, S3_PREFIX: 'catalog' } });
      try {
        const { key } = await server.account('pro');
        const { id, bytes } = await addSound(server.services);
        const keys = await objectKeys(bucket);
        assert.equal(keys.length, 1);
        assert.match(keys[0]!, /^catalog\/[0-9a-f]{2}\/[0-9a-f]{64}\.mp3$/);
        assert.deepEqual(await objectBytes(bucket, keys[0]!), bytes);
        const url = await signedUrl(server, key, id, 'stream', '');
        const partial = await fetch(url, { headers: { range: 'bytes=100-199' } });
        assert.equal(partial.status, 206);
        assert.equal(partial.headers.get('content-range'), `bytes 100-199/${bytes.length}`);
        assert.deepEqual(new Uint8Array(await partial.arrayBuffer()), bytes.slice(100, 200));
        const tail = await fetch(url, { headers: { range: 'bytes=-7' } });
        assert.deepEqual(new Uint8Array(await tail.arrayBuffer()), bytes.slice(-7));
        const outside = await fetch(url, { headers: { range: `bytes=${bytes.length + 10}-` } });
        assert.equal(outside.status, 416);
        assert.equal(outside.headers.get('content-range'), `bytes */${bytes.length}`);
        const head = await fetch(url, { method: 'HEAD' });
        assert.equal(head.status, 200);
        assert.equal(head.headers.get('content-length'), String(bytes.length));
        assert.equal((await head.arrayBuffer()).byteLength, 0);
      } finally {
        await server.close();
        await bucket.remove();
      }
    },
  );

  test(
    'media.s3.redirect: with MEDIA_REDIRECT a signed URL answers 302 to a ' +
      'presigned URL that expires no later; HEAD, refusals and renditions as before',
    async () => {
      const bucket = await createTestBucket();
      const server = await startServer({ env: { ...bucket.env, MEDIA_REDIRECT: 'true' } });
      try {
        const { key } = await server.account('pro');
        const { id, bytes } = await addSound(server.services, { name: 'Door Slam' });
        const url = await signedUrl(server, key, id, 'download', '');
        const answer = await fetch(url, { redirect: 'manual' });
        assert.equal(answer.status, 302);
        const location = new URL(answer.headers.get('location')!);
        assert.equal(location.origin, new URL(S3_SERVER.endpoint).origin);
        const secondsLeft = Number(new URL(url).searchParams.get('exp')) - Math.floor(server.clock.now / 1000);
        const lifetime = Number(location.searchParams.get('X-Amz-Expires'));
        assert.ok(
          lifetime > 0 && lifetime <= secondsLeft,
          `presigned for ${lifetime} s, signed URL has ${secondsLeft} s left`,
        );
        const fromStore = await fetch(location);
        assert.equal(fromStore.status, 200);
        assert.match(fromStore.headers.get('content-disposition') ?? '', /^attachment; filename="door-slam\.mp3"/);
        assert.deepEqual(new Uint8Array(await fromStore.arrayBuffer()), bytes);

        const head = await fetch(url, { method: 'HEAD', redirect: 'manual' });
        assert.equal(head.status, 200, 'a HEAD is answered by the service: a presigned GET refuses HEAD');
        assert.equal(head.headers.get('content-length'), String(bytes.length));

        const tampered = url.replace(/sig=[^&]/, (match) => match.slice(0, -1) + (match.endsWith('A') ? 'B' : 'A'));
        const refused = await fetch(tampered, { redirect: 'manual' });
        assert.equal(refused.status, 403);
        assert.equal(refused.headers.get('location'), null);
        server.clock.advance((secondsLeft + 1) * 1000);
        const expired = await fetch(url, { redirect: 'manual' });
        assert.equal(expired.status, 403);
        assert.equal(expired.headers.get('location'), null);
      } finally {
        await server.close();
        await bucket.remove();
      }
    },
  );

  test(
    'media.s3.rendition: a rendition is made once and stored in the bucket; with MEDIA_REDIRECT ' +
      'its tagged file is proxied, not redirected (the bucket holds it untagged)',
    async () => {
      const bucket = await createTestBucket();
      const server = await startServer({ env: { ...bucket.env, MEDIA_REDIRECT: 'true' } });
      try {
        const { key } = await server.account('pro');
        const { id } = await addRealSound(server.services, tone(1.5, 0.3), 'Tone');
        const url = await signedUrl(server, key, id, 'stream', '?loudness=-20');
        const first = await fetch(url, { redirect: 'manual' });
        assert.equal(first.status, 200);
        const renditions = (await objectKeys(bucket)).filter((name) => name.startsWith('renditions/'));
        assert.equal(renditions.length, 1);
        assert.match(renditions[0]!, /-lu-20\.mp3$/);
        const served = new Uint8Array(await first.arrayBuffer());
        assert.equal(Buffer.from(served).toString('latin1', 0, 3), 'ID3', "the sound's tags in front");
        assert.deepEqual(withoutId3(served), await objectBytes(bucket, renditions[0]!));
        const partial = await fetch(url, { headers: { range: 'bytes=5-99' } });
        assert.equal(partial.status, 206);
        assert.deepEqual(new Uint8Array(await partial.arrayBuffer()), served.slice(5, 100));
        const again = await fetch(url, { redirect: 'manual' });
        assert.equal(again.status, 200);
        await again.arrayBuffer();
        assert.equal((await server.services.renditions.stats()).made, 1, 'served from the bucket, not made again');
      } finally {
        await server.close();
        await bucket.remove();
      }
    },
  );

  test(
    'media.s3.down: a store that stops answering gives media 503 with ' +
      'Retry-After, the JSON API answers, /readyz names the media store',
    async () => {
      const bucket = await createTestBucket();
      // A proxy of this test's own in front of the shared S3 server: closing it takes the store away from this server
      // alone.
      const target = new URL(S3_SERVER.endpoint);
      const sockets = new Set<Socket>();
      const proxy: Server = createServer((socket) => {
        const upstream = connect(Number(target.port), target.hostname);
        sockets.add(socket).add(upstream);
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const port = (proxy.address() as { port: number }).port;
      const server = await startServer({ env: { ...bucket.env, S3_ENDPOINT: `http://127.0.0.1:${port}` } });
      try {
        const { key } = await server.account('pro');
        const { id } = await addSound(server.services);
        const url = await signedUrl(server, key, id, 'stream', '');
        assert.equal((await fetch(url)).status, 200);
        assert.equal((await fetch(`${server.url}/readyz`)).status, 200);

        await new Promise<void>((resolve) => {
          proxy.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        });
        const media = await fetch(url);
        assert.equal(media.status, 503);
        assert.ok(Number(media.headers.get('retry-after')) > 0);
        assert.match((await media.json()).error, /media store/);
        assert.equal(
          (await server.get(`/api/v1/sounds/${id}`, { key })).status,
          200,
          'the JSON API answers without the store',
        );
        const ready = await fetch(`${server.url}/readyz`);
        assert.equal(ready.status, 503);
        const body = await ready.json();
        assert.equal(body.dependency, 'media store');
        assert.doesNotMatch(JSON.stringify(body), /127\.0\.0\.1/, 'no address to a client');
      } finally {
        await server.close();
        await bucket.remove();
      }
    },
  );

  describe('refusal to start', () => {
    let dataDir: string;
    let bucket: TestBucket;
    before(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-s3-refusal-'));
      bucket = await createTestBucket();
    });
    after(async () => {
      await rm(dataDir, { recursive: true, force: true });
      await bucket.remove();
    });

    for (const command of [['serve'], ['ingest', '.']]) {
      test(
        // biome-ignore lint/style/useTemplate: a test name split to stay within 120 columns
        `media.s3.refuse: ${command[0]} with a missing ` + `bucket or wrong credentials stops with one clear line`,
        async () => {
          const base = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', PORT: '0' };
          const missing = await runCli(command, { ...base, ...bucket.env, S3_BUCKET: `${bucket.name}-absent` });
          assert.equal(missing.status, 1);
          // One line of ours (on Node.js 20 the AWS SDK adds its own warning about the version), no stack trace.
          assert.equal(
            missing.stderr.split('\n').filter((line) => line.startsWith('sound-catalog ')).length,
            1,
            missing.stderr,
          );
          assert.doesNotMatch(missing.stderr, /\n\s+at /);
          assert.match(
            missing.stderr,
            new RegExp(`sound-catalog ${command[0]}: the S3 bucket ${bucket.name}-absent at .* does not exist`),
          );
          const refused = await runCli(command, { ...base, ...bucket.env, AWS_SECRET_ACCESS_KEY: 'not-the-secret' });
          assert.equal(refused.status, 1);
          assert.match(
            refused.stderr,
            new RegExp(`sound-catalog ${command[0]}: the S3 bucket ${bucket.name} at .* refused the credentials`),
          );
          assert.doesNotMatch(refused.stderr, /not-the-secret/);
        },
      );
    }
  });
});
