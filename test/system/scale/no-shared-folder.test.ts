import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { loadConfig } from '../../../src/config.ts';
import type { Services } from '../../../src/services.ts';
import { createServices } from '../../../src/wiring.ts';
import { sine } from '../../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../../audio/helpers/wav.ts';
import { removeBackend, SHARED, sharedBackendsMissing, sharedEnv } from '../../helpers/backend.ts';
import { runCli } from '../../helpers/cli.ts';
import { withoutId3 } from '../../helpers/id3.ts';
import { startServe, type ServeProcess } from '../../helpers/process.ts';
import { createTestBucket, s3ServerMissing, type TestBucket } from '../../helpers/s3.ts';
import { csrfToken, WebClient } from '../../dashboard/helpers/web-client.ts';

const skip = (await sharedBackendsMissing()) || (await s3ServerMissing());

/** Every file under a folder, as paths relative to it. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

/** The same URL, sent to another instance. */
function on(instance: ServeProcess, url: string): string {
  const moved = new URL(url);
  moved.host = new URL(instance.url).host;
  return moved.href;
}

/**
 * docs/operations.md's deployment: instances with nothing on disk in common, on PostgreSQL + Redis +
 * S3, no SIGNING_SECRET set. Each has a data folder of its own; the secrets come from the
 * database and every media file from the bucket.
 */
describe('scale-out: two instances with separate data folders on PostgreSQL, Redis and S3', { skip }, () => {
  const folders: string[] = [];
  let bucket: TestBucket;
  let envA: Record<string, string>;
  let envB: Record<string, string>;
  /** A third instance in this process, on a folder of its own, for setting up accounts. */
  let admin: Services;
  let a: ServeProcess;
  let b: ServeProcess;
  let key: string;
  let soundId: string;

  const folder = async (name: string) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), `sc-no-shared-${name}-`));
    folders.push(dataDir);
    return dataDir;
  };
  const get = (instance: ServeProcess, pathAndQuery: string) =>
    fetch(instance.url + pathAndQuery, { headers: { 'x-api-key': key } });
  const signed = async (instance: ServeProcess, pathAndQuery: string) => {
    const response = await get(instance, pathAndQuery);
    assert.equal(response.status, 200, pathAndQuery);
    const { data } = (await response.json()) as { data: { stream_url?: string; download_url?: string } };
    return (data.stream_url ?? data.download_url)!;
  };
  const objectsInBucket = async () =>
    (await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.name }))).Contents?.map((o) => o.Key!) ?? [];

  before(async () => {
    bucket = await createTestBucket();
    const shared = {
      ...bucket.env,
      // On Node.js 20 the AWS SDK warns over several lines of standard error; the other S3 tests turn it off too.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    const first = await folder('a');
    envA = { ...(await sharedEnv(first)), ...shared };
    envB = { ...envA, SOUND_CATALOG_DATA: await folder('b') };
    const envAdmin = { ...envA, SOUND_CATALOG_DATA: await folder('admin') };

    // The schema made once per release (docs/operations.md, "Several instances"); the two instances then start at once.
    const migrated = await runCli(['migrate'], envA);
    assert.equal(migrated.status, 0, migrated.stderr);
    [a, b] = await Promise.all([startServe(envA), startServe(envB)]);
    admin = await createServices(loadConfig(envAdmin));
    const account = await admin.accounts.createAccount(`no-shared-${Date.now()}@example.com`, 'pro');
    ({ key } = await admin.accounts.createKey(account.id, 'no-shared'));

    // Ingested on a third folder: its MP3 goes to the bucket, its row to PostgreSQL.
    const incoming = path.join(await folder('incoming'), 'in');
    await mkdir(incoming, { recursive: true });
    await writeFile(
      path.join(incoming, 'unshared quokka bell.wav'),
      encodeWavFloat32({ sampleRate: 44_100, channels: [sine(44_100, 880, -14, 44_100)] }),
    );
    const ingested = await runCli(['ingest', incoming, '--json'], {
      ...envA,
      SOUND_CATALOG_DATA: await folder('ingest'),
    });
    assert.equal(ingested.status, 0, ingested.stderr);
    assert.equal(ingested.json.added, 1);
  });

  after(async () => {
    await Promise.all([a, b].filter(Boolean).map((instance) => instance.stop()));
    await admin?.close();
    await bucket?.remove();
    for (const dataDir of folders) await rm(dataDir, { recursive: true, force: true });
    if (folders[0]) await removeBackend(folders[0], SHARED.databaseUrl);
  });

  test(
    'no-shared-folder.sounds: a sound ingested elsewhere is found ' +
      'by both, and each serves the URLs the other signs, byte for byte',
    async () => {
      for (const instance of [a, b]) {
        const found = async () => {
          const body = (await (await get(instance, '/api/v1/sounds?q=quokka')).json()) as { data: { id: string }[] };
          return body.data[0]?.id;
        };
        const deadline = Date.now() + 5000;
        let id = await found();
        while (id === undefined && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          id = await found();
        }
        assert.ok(id, `found on ${instance.url}`);
        soundId = id;
      }
      const played: Uint8Array[] = [];
      for (const [signer, player] of [
        [a, b],
        [b, a],
      ] as const) {
        for (const kind of ['stream', 'download']) {
          const url = await signed(signer, `/api/v1/sounds/${soundId}/${kind}`);
          const response = await fetch(on(player, url));
          assert.equal(response.status, 200, `signed by ${signer.url}, played on ${player.url}`);
          assert.equal(response.headers.get('content-type'), 'audio/mpeg');
          played.push(new Uint8Array(await response.arrayBuffer()));
        }
      }
      assert.ok(played[0]!.length > 1000);
      // The same file behind each instance's tags (they name the sound by the instance's address without PUBLIC_URL).
      for (const bytes of played) assert.deepEqual(withoutId3(bytes), withoutId3(played[0]!));
      // A part of it, from the bucket through the other instance.
      const url = await signed(a, `/api/v1/sounds/${soundId}/stream`);
      const part = await fetch(on(b, url), { headers: { range: 'bytes=100-199' } });
      assert.equal(part.status, 206);
      assert.deepEqual(new Uint8Array(await part.arrayBuffer()), played[0]!.subarray(100, 200));
    },
  );

  test(
    'no-shared-folder.renditions: a rendition signed by one instance is made once, by ' +
      'whichever serves it first, into the bucket, and the other serves the same bytes',
    async () => {
      assert.ok(soundId, 'the sound of the test before');
      const before = await objectsInBucket();
      const url = await signed(a, `/api/v1/sounds/${soundId}/stream?loudness=-16`);
      assert.match(url, /[?&]loudness=-16&account=/);
      const first = await fetch(on(b, url));
      assert.equal(first.status, 200);
      const made = new Uint8Array(await first.arrayBuffer());
      const after = await objectsInBucket();
      assert.equal(after.length, before.length + 1, 'one rendition stored in the bucket');
      const again = await fetch(on(a, url));
      assert.equal(again.status, 200);
      assert.deepEqual(withoutId3(new Uint8Array(await again.arrayBuffer())), withoutId3(made));
      assert.deepEqual(await objectsInBucket(), after, 'served from the bucket, not made again');
    },
  );

  test(
    'no-shared-folder.sessions: a dashboard session and ' + 'its form tokens from one instance work on the other',
    async () => {
      const email = `no-shared-web-${Date.now()}@example.com`;
      const onA = new WebClient(a.url);
      assert.equal((await onA.signUp(email)).status, 303);
      const onB = new WebClient(b.url);
      for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
      const overview = await onB.get('/dashboard');
      assert.equal(overview.status, 200);
      assert.ok(overview.text.includes(email), 'signed in on the other instance');
      const tokenFromA = csrfToken((await onA.get('/dashboard')).text);
      assert.equal(
        (await onB.post('/dashboard/sign-out', { _csrf: tokenFromA })).status,
        303,
        'a form token made by one instance is accepted by the other',
      );
      assert.equal((await onA.get('/dashboard')).status, 303, 'signed out on both');
    },
  );

  test("no-shared-folder.disk: neither instance's data folder holds a media file or a secret", async () => {
    for (const dataDir of [envA.SOUND_CATALOG_DATA!, envB.SOUND_CATALOG_DATA!]) {
      const files = await filesUnder(dataDir).catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' ? [] : Promise.reject(error),
      );
      assert.deepEqual(
        files.filter((file) => /\.(mp3|tmp)$|secret/.test(file)),
        [],
        dataDir,
      );
    }
  });
});
