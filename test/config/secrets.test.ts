import assert from 'node:assert/strict';
import { configFor } from '../helpers/backend.ts';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createServices } from '../../src/wiring.ts';

describe('secrets', () => {
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

  test('secrets.generated: the signing and the CSRF secret are generated apart into the data folder, kept across starts, and SIGNING_SECRET leaves the CSRF one alone', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'secrets-'));
    try {
      const first = await createServices(await configFor(dataDir));
      const signing = (await readFile(path.join(dataDir, 'signing-secret'), 'utf8')).trim();
      const csrf = (await readFile(path.join(dataDir, 'csrf-secret'), 'utf8')).trim();
      assert.equal(first.csrfSecret, csrf);
      assert.notEqual(signing, csrf);
      assert.equal(statSync(path.join(dataDir, 'csrf-secret')).mode & 0o777, 0o600);
      const url = first.signer.sign('abcdef0123456789', 'stream').url;
      await first.close();

      const again = await createServices(await configFor(dataDir));
      assert.equal(again.csrfSecret, csrf);
      assert.equal(again.signer.verify('abcdef0123456789', Object.fromEntries(new URL(url).searchParams)).ok, true);
      await again.close();

      const rotated = await createServices(await configFor(dataDir, { SIGNING_SECRET: 'an-operator-secret-0123456789' }));
      assert.equal(rotated.csrfSecret, csrf, 'a new SIGNING_SECRET does not sign anyone out of the dashboard');
      assert.equal(rotated.signer.verify('abcdef0123456789', Object.fromEntries(new URL(url).searchParams)).ok, false);
      await rotated.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
