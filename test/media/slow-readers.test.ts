import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { S3Store } from '../../src/media/s3-store.ts';
import { onS3 } from '../helpers/backend.ts';
import { createTestBucket, S3_SERVER, s3ServerMissing, type TestBucket } from '../helpers/s3.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

/** Larger than every buffer between the store and a reader, so a reader that stops holds its stream open. */
const LARGE = 16 * 1024 * 1024;
const SMALL = 256 * 1024;
const SLOW_READERS = 60;

/** A client that reads the first bytes of a URL and then stops reading, its connection left open. */
async function slowReader(url: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`a slow reader was answered ${response.statusCode}`));
      response.once('data', () => {
        response.pause();
        resolve(request);
      });
    });
    request.on('error', reject);
  });
}

/** The time an answer takes, body read whole. */
async function timed(url: string, init?: RequestInit): Promise<{ ms: number; status: number; bytes: Uint8Array }> {
  const start = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { ms: performance.now() - start, status: response.status, bytes };
}

/**
 * Clients that read media slowly hold their streams open: on S3 each holds a socket of the
 * store's client while it does. They must not take the service from others: a stream of another
 * sound and the readiness check still answer at once. Runs on the pass's media store (the folder,
 * or S3 with TEST_MEDIA=s3).
 */
describe(`media.slow-readers (${onS3 ? 'S3' : 'folder'})`, () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
  });
  after(() => server.close());

  const streamUrl = async (id: string) => {
    const answer = await server.get(`/api/v1/sounds/${id}/stream`, { key });
    return ((await answer.json()) as { data: { stream_url: string } }).data.stream_url;
  };

  test(
    `media.slow-readers: with ${SLOW_READERS} readers stalled on one sound, another sound streams and /readyz ` +
      'answers within 2 s',
    async () => {
      const large = await addSound(server.services, { name: 'Long Rain', bytes: new Uint8Array(randomBytes(LARGE)) });
      const small = await addSound(server.services, { name: 'Door Knock', bytes: new Uint8Array(randomBytes(SMALL)) });
      const largeUrl = await streamUrl(large.id);
      const smallUrl = await streamUrl(small.id);
      const readers: http.ClientRequest[] = [];
      try {
        // One after another: each is answered at once, however loaded the store.
        for (let i = 0; i < SLOW_READERS; i++) readers.push(await slowReader(largeUrl));
        // Long enough for every buffer on the way to fill, so each reader's stream is stalled.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const fresh = await timed(smallUrl);
        assert.equal(fresh.status, 200);
        assert.deepEqual(fresh.bytes, small.bytes);
        assert.ok(fresh.ms < 2000, `another sound streamed in ${Math.round(fresh.ms)} ms`);
        const ready = await timed(`${server.url}/readyz`);
        assert.equal(ready.status, 200);
        assert.ok(ready.ms < 2000, `/readyz answered in ${Math.round(ready.ms)} ms`);
        const range = await timed(largeUrl, { headers: { range: 'bytes=0-99' } });
        assert.equal(range.status, 206);
        assert.deepEqual(range.bytes, large.bytes.slice(0, 100), 'the stalled sound itself too');
        assert.ok(range.ms < 2000, `a range of the stalled sound in ${Math.round(range.ms)} ms`);
      } finally {
        for (const reader of readers) reader.destroy();
      }
      const again = await timed(largeUrl);
      assert.equal(again.status, 200);
      assert.equal(again.bytes.length, LARGE, 'the readers closed, the whole sound streams');
    },
  );
});

const noS3 = await s3ServerMissing();

/** The S3 store's pools, on the test S3 server, with bounds small enough to reach in a test. */
describe('media.s3-pools', { skip: noS3 }, () => {
  let bucket: TestBucket;
  let dataDir: string;
  let store: S3Store;
  const bytes = new Uint8Array(randomBytes(LARGE));
  before(async () => {
    bucket = await createTestBucket();
    dataDir = await mkdtemp(path.join(tmpdir(), 'sc-s3-pools-'));
    const settings = {
      bucket: bucket.name,
      prefix: '',
      endpoint: S3_SERVER.endpoint,
      region: S3_SERVER.region,
      forcePathStyle: S3_SERVER.forcePathStyle,
      credentials: { accessKeyId: S3_SERVER.accessKeyId, secretAccessKey: S3_SERVER.secretAccessKey },
    };
    store = new S3Store(settings, dataDir, false, { streamSockets: 1, streamIdleMs: 1000 });
    await store.put('large.mp3', bytes);
  });
  after(async () => {
    store?.close();
    await bucket?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test(
    's3-pools.stall: a body that stops moving is cut after ' + 'the idle bound, and its socket serves the next stream',
    async () => {
      const stalled = await store.read('large.mp3');
      await firstChunkThenStop(stalled);
      const cut = new Promise<Error>((resolve) => stalled.once('error', resolve));
      const started = performance.now();
      // The only stream socket is held: control requests have a pool of their own.
      await store.ready();
      assert.equal((await store.stat('large.mp3'))?.size, LARGE);
      assert.ok(performance.now() - started < 500, 'readiness and HEAD did not wait for the stream socket');
      // The next stream waits for the socket until the stalled body is cut.
      const next = await store.read('large.mp3', { start: 0, end: 9 });
      const waited = performance.now() - started;
      const error = await cut;
      assert.equal(error.name, 'TimeoutError');
      assert.match(error.message, /timed out after 1000 ms of inactivity/);
      assert.ok(waited >= 900 && waited < 2900, `the next stream got the socket after ${Math.round(waited)} ms`);
      const chunks: Buffer[] = [];
      for await (const chunk of next) chunks.push(chunk as Buffer);
      assert.deepEqual(new Uint8Array(Buffer.concat(chunks)), bytes.slice(0, 10));
    },
  );
});

/** Reads one chunk, then stops reading. */
function firstChunkThenStop(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('data', () => {
      stream.pause();
      resolve();
    });
    stream.once('error', reject);
  });
}
