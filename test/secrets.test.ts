import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig, type Config } from '../src/config.ts';
import { openDatabase } from '../src/db/index.ts';
import { MediaSigner } from '../src/media/signing.ts';
import type { Services } from '../src/services.ts';
import { createServices } from '../src/wiring.ts';
import { backendEnv, configFor, onPostgres, otherConnection, removeBackend } from './helpers/backend.ts';

const ID = 'abcdef0123456789';
const kidOf = (secret: string) =>
  createHmac('sha256', secret).update('sound-catalog media URL key id').digest('base64url').slice(0, 8);
const kidIn = (url: string) => new URL(url).searchParams.get('kid');
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

/** Data folders made by a test, removed with their backends after the file. */
const folders: string[] = [];
async function dataFolder(): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'secrets-'));
  folders.push(dataDir);
  return dataDir;
}

/**
 * A second instance's settings: a data folder of its own, on the first one's database. On
 * PostgreSQL that is another instance on the same schema; on SQLite the database is a file in the
 * data folder, so the second instance is on the same folder, as it must be there.
 */
async function sameDatabase(first: string, env: Record<string, string> = {}): Promise<Config> {
  if (!onPostgres) return configFor(first, env);
  return loadConfig({ SOUND_CATALOG_DATA: await dataFolder(), SOUND_CATALOG_DEMO: '0', ...backendEnv(first), ...env });
}

/** The secrets the database holds, by name. */
async function storedSecrets(dataDir: string): Promise<Record<string, string>> {
  const connection = await otherConnection(dataDir);
  try {
    const rows = await connection.all<{ name: string; value: string }>('SELECT name, value FROM secrets');
    return Object.fromEntries(rows.map((row) => [row.name, row.value]));
  } finally {
    await connection.close();
  }
}

describe('secrets', () => {
  after(async () => {
    for (const dataDir of folders) {
      await rm(dataDir, { recursive: true, force: true });
      await removeBackend(dataDir);
    }
  });

  test('secrets.config-only-parses: reading the settings writes nothing, not even the data folder', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'secrets-parse-'));
    try {
      const config = loadConfig({ SOUND_CATALOG_DATA: path.join(parent, 'data') });
      assert.equal(config.signingSecrets, null);
      assert.equal(existsSync(path.join(parent, 'data')), false);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  test(
    'secrets.generated: the signing and the CSRF secret are generated apart into the ' +
      'database, 32 random bytes each, kept across starts; the data folder gets no secret file',
    async () => {
      const dataDir = await dataFolder();
      const first = await createServices(await configFor(dataDir));
      const url = first.signer.sign(ID, 'stream').url;
      const csrf = first.csrfSecret;
      await first.close();
      const stored = await storedSecrets(dataDir);
      assert.deepEqual(Object.keys(stored).sort(), ['csrf', 'signing']);
      assert.equal(stored.csrf, csrf);
      assert.equal(kidIn(url), kidOf(stored.signing!));
      for (const value of Object.values(stored)) assert.equal(Buffer.from(value, 'base64url').length, 32);
      assert.notEqual(stored.signing, stored.csrf);
      assert.deepEqual(
        (await readdir(dataDir)).filter((name) => name.includes('secret')),
        [],
      );

      const again = await createServices(await configFor(dataDir));
      try {
        assert.equal(again.csrfSecret, csrf);
        assert.equal(again.signer.verify(ID, queryOf(url)).ok, true);
      } finally {
        await again.close();
      }
    },
  );

  test(
    'secrets.shared: instances on separate data folders and one database, ' +
      "started at once, get the same secrets (their URLs and forms are each other's)",
    async () => {
      const dataDir = await dataFolder();
      const configs = [await configFor(dataDir), await sameDatabase(dataDir), await sameDatabase(dataDir)];
      if (onPostgres) assert.equal(new Set(configs.map((config) => config.dataDir)).size, 3);
      // The schema made first, as `sound-catalog migrate` would: what races below is the secrets, not the migrations.
      await (await openDatabase(configs[0]!)).close();
      const instances: Services[] = await Promise.all(configs.map((config) => createServices(config)));
      try {
        assert.equal(new Set(instances.map((instance) => instance.csrfSecret)).size, 1);
        const urls = instances.map((instance) => instance.signer.sign(ID, 'download').url);
        assert.equal(new Set(urls).size, 1, 'the same secret signs the same URL');
        for (const instance of instances) assert.equal(instance.signer.verify(ID, queryOf(urls[0]!)).ok, true);
        assert.equal((await storedSecrets(dataDir)).csrf, instances[0]!.csrfSecret);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
    },
  );

  test(
    'secrets.earlier-release: the signing-secret and csrf-secret files of an earlier release are taken ' +
      'into the database once, so its URLs and forms stay valid; another instance gets them from the database',
    async () => {
      const dataDir = await dataFolder();
      const signing = 'pS0mVh1r1bL0y8hE5oQw2Zc3kT7nX9aD4fG6jK8lM0A';
      const csrf = 'cV5bN7mQ9wE1rT3yU5iO7pA9sD1fG3hJ5kL7zX9cV1B';
      await writeFile(path.join(dataDir, 'signing-secret'), `${signing}\n`, { mode: 0o600 });
      await writeFile(path.join(dataDir, 'csrf-secret'), `${csrf}\n`, { mode: 0o600 });
      const before = new MediaSigner([signing], () => 'http://127.0.0.1:3000', Date.now).sign(ID, 'stream').url;

      const upgraded = await createServices(await configFor(dataDir));
      try {
        assert.equal(upgraded.csrfSecret, csrf);
        assert.equal(
          upgraded.signer.verify(ID, queryOf(before)).ok,
          true,
          'a URL handed out before the upgrade still plays',
        );
      } finally {
        await upgraded.close();
      }
      assert.deepEqual(await storedSecrets(dataDir), { signing, csrf });

      // The database holds them now: a file that changes afterwards, or another folder without one, changes nothing.
      await writeFile(path.join(dataDir, 'csrf-secret'), 'x'.repeat(43));
      const other = await createServices(await sameDatabase(dataDir));
      try {
        assert.equal(other.csrfSecret, csrf);
        assert.equal(kidIn(other.signer.sign(ID, 'stream').url), kidOf(signing));
      } finally {
        await other.close();
      }
    },
  );

  test(
    'secrets.earlier-release-short: a secret file shorter than 32 random ' +
      'bytes is refused with one line naming it, and nothing is written',
    async () => {
      const dataDir = await dataFolder();
      const file = path.join(dataDir, 'signing-secret');
      await writeFile(file, 'hand-written-secret\n');
      await assert.rejects(
        createServices(await configFor(dataDir)),
        (error: Error) =>
          error instanceof ConfigError &&
          error.message ===
            `${file} holds a secret shorter than 43 characters: delete it to have one generated, or set SIGNING_SECRET`,
      );
      assert.deepEqual(await storedSecrets(dataDir), {});
    },
  );

  test(
    "secrets.environment-wins: SIGNING_SECRET signs instead of the database's " +
      "secret, which it neither makes nor changes; the CSRF secret stays the database's",
    async () => {
      const dataDir = await dataFolder();
      const operator = 'oP3r4t0rS3cr3t-kJ3uQ0x1bqZ6m1v8Xg0e5Jt2yH7cW9';
      const fromEnvironment = await createServices(await configFor(dataDir, { SIGNING_SECRET: operator }));
      const csrf = fromEnvironment.csrfSecret;
      const url = fromEnvironment.signer.sign(ID, 'stream').url;
      await fromEnvironment.close();
      assert.equal(kidIn(url), kidOf(operator));
      assert.deepEqual(
        Object.keys(await storedSecrets(dataDir)),
        ['csrf'],
        'no signing secret is generated while SIGNING_SECRET is set',
      );

      const generated = await createServices(await sameDatabase(dataDir));
      const stored = await storedSecrets(dataDir);
      try {
        assert.equal(generated.csrfSecret, csrf, 'unsetting SIGNING_SECRET signs nobody out of the dashboard');
        assert.equal(generated.signer.verify(ID, queryOf(url)).ok, false);
        assert.equal(kidIn(generated.signer.sign(ID, 'stream').url), kidOf(stored.signing!));
      } finally {
        await generated.close();
      }
      const again = await createServices(await sameDatabase(dataDir, { SIGNING_SECRET: operator }));
      try {
        assert.equal(again.signer.verify(ID, queryOf(url)).ok, true);
        assert.deepEqual(await storedSecrets(dataDir), stored, 'set again, it leaves the stored secret as it was');
      } finally {
        await again.close();
      }
    },
  );
});
