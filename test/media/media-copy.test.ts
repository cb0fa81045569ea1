import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { runCli } from '../helpers/cli.ts';
import { createTestBucket, s3ServerMissing, type TestBucket } from '../helpers/s3.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';
import { signedUrl } from './helpers.ts';

const skip = await s3ServerMissing();
/** Keeps a server on the data folder even when the run puts media on S3 (TEST_MEDIA=s3). */
const IN_FOLDER = { S3_BUCKET: '', S3_ENDPOINT: '', S3_PREFIX: '', MEDIA_REDIRECT: '' };
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

describe('media copy --to s3', { skip }, () => {
  let server: TestServer;
  let bucket: TestBucket;
  let dataDir: string;
  let env: Record<string, string>;
  let sounds: Array<{ id: string; bytes: Uint8Array }>;
  let renditionUrl: string;
  let plainUrl: string;
  let folderFiles: Map<string, string>;

  const copy = async (...flags: string[]) => {
    const result = await runCli(['media', 'copy', '--to', 's3', '--json', ...flags], env);
    assert.equal(result.status, 0, result.stderr);
    return result.json as { dryRun: boolean; copied: number; skipped: number; bytes: number; files?: string[] };
  };
  const bucketFiles = async () => {
    const page = await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.name }));
    const files = new Map<string, string>();
    for (const { Key } of page.Contents ?? []) {
      const body = await bucket.client.send(new GetObjectCommand({ Bucket: bucket.name, Key }));
      files.set(Key!, md5(await body.Body!.transformToByteArray()));
    }
    return files;
  };

  before(async () => {
    bucket = await createTestBucket();
    server = await startServer({ env: IN_FOLDER });
    dataDir = server.dataDir;
    const { key } = await server.account('pro');
    sounds = [
      await addSound(server.services, { name: 'Kept One' }),
      await addSound(server.services, { name: 'Kept Two' }),
    ];
    const real = await addRealSound(server.services, tone(1.2, 0.3), 'Tone');
    renditionUrl = await signedUrl(server, key, real.id, 'stream', '?loudness=-18');
    assert.equal((await fetch(renditionUrl)).status, 200);
    plainUrl = await signedUrl(server, key, sounds[0]!.id, 'stream', '');
    await server.close({ keepData: true });
    const root = path.join(dataDir, 'audio');
    folderFiles = new Map();
    for (const name of await readdir(root, { recursive: true })) {
      if (name.endsWith('.mp3') && !name.startsWith('.tmp'))
        folderFiles.set(name.split(path.sep).join('/'), md5(await readFile(path.join(root, name))));
    }
    assert.equal(folderFiles.size, 4, 'three originals and one rendition');
    env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', ...bucket.env };
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await bucket.remove();
  });

  test('media.copy.dry-run: says what it would copy and writes nothing', async () => {
    const plan = await copy('--dry-run');
    assert.equal(plan.dryRun, true);
    assert.equal(plan.copied, 4);
    assert.deepEqual(plan.files!.sort(), [...folderFiles.keys()].sort());
    assert.equal((await bucketFiles()).size, 0);
  });

  test('media.copy.all: every original and rendition lands in the bucket with the same bytes', async () => {
    const done = await copy();
    assert.deepEqual({ copied: done.copied, skipped: done.skipped }, { copied: 4, skipped: 0 });
    assert.deepEqual(await bucketFiles(), folderFiles);
  });

  test('media.copy.resume: a second run copies only what is missing, a third nothing', async () => {
    const [lost] = [...folderFiles.keys()];
    // What an interrupted run leaves: some objects not there yet.
    await bucket.client.send(new DeleteObjectCommand({ Bucket: bucket.name, Key: lost! }));
    const resumed = await copy();
    assert.deepEqual({ copied: resumed.copied, skipped: resumed.skipped }, { copied: 1, skipped: 3 });
    const again = await copy();
    assert.deepEqual({ copied: again.copied, skipped: again.skipped }, { copied: 0, skipped: 4 });
    assert.deepEqual(await bucketFiles(), folderFiles);
  });

  test(
    'media.copy.serve: the catalog serves from the bucket ' + 'with the folder gone, renditions not made again',
    async () => {
      await rm(path.join(dataDir, 'audio'), { recursive: true, force: true });
      const moved = await startServer({ dataDir, env: bucket.env, clock: server.clock });
      // The same signed URLs, now answered by the new instance.
      const at = (url: string) => moved.url + url.slice(new URL(url).origin.length);
      try {
        const plain = await fetch(at(plainUrl));
        assert.equal(plain.status, 200);
        assert.deepEqual(new Uint8Array(await plain.arrayBuffer()), sounds[0]!.bytes);
        assert.equal((await fetch(at(renditionUrl))).status, 200);
        assert.equal((await moved.services.renditions.stats()).made, 0);
      } finally {
        await moved.close({ keepData: true });
      }
    },
  );

  test('media.copy.usage: without S3_BUCKET or with another target it says how to call it', async () => {
    const noBucket = await runCli(['media', 'copy', '--to', 's3'], { SOUND_CATALOG_DATA: dataDir, ...IN_FOLDER });
    assert.equal(noBucket.status, 2);
    assert.match(noBucket.stderr, /needs S3_BUCKET/);
    const wrong = await runCli(['media', 'copy', '--to', 'ftp'], env);
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /usage: media copy --to s3/);
  });
});
