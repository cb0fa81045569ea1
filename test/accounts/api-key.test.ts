import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isWellFormedApiKey } from '../../src/accounts/api-key.ts';
import { KEY_CHECKSUM_LENGTH, KEY_PREFIX, KEY_SECRET_LENGTH } from '../../src/api-key-format.ts';
import { otherConnection } from '../helpers/backend.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/** Keys as accounts/ issues them: their format, what the database keeps, and revocation, through HTTP. */
describe('accounts: API keys', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const status = async (key: string) => (await server.get('/api/v1/sounds?q=anything', { key })).status;

  test('keys.format: a key is sc_, a base62 secret and its checksum, and it opens the API', async () => {
    const { key } = await server.account('pro');
    assert.match(key, new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_SECRET_LENGTH + KEY_CHECKSUM_LENGTH}}$`));
    assert.ok(isWellFormedApiKey(key));
    assert.equal(await status(key), 200);
  });

  test('keys.checksum: one character changed in the secret fails the checksum and the key is refused', async () => {
    const { key } = await server.account('pro');
    const at = KEY_PREFIX.length + 5;
    const changed = key.slice(0, at) + (key[at] === 'a' ? 'b' : 'a') + key.slice(at + 1);
    assert.equal(isWellFormedApiKey(changed), false);
    assert.equal(await status(changed), 401);
  });

  test('keys.stored-hashed: the database keeps no key, only its hash and shown prefix', async () => {
    const { key, account } = await server.account('pro');
    const connection = await otherConnection(server.dataDir, { readonly: true });
    try {
      const rows = await connection.all<Record<string, unknown>>(
        'SELECT * FROM api_keys WHERE account_id = ?',
        account.id,
      );
      assert.equal(rows.length, 1);
      const stored = JSON.stringify(rows);
      assert.ok(!stored.includes(key.slice(KEY_PREFIX.length)), 'the secret is not stored');
    } finally {
      await connection.close();
    }
  });

  test('keys.revoked: a revoked key is refused from the next request on', async () => {
    const { key, account } = await server.account('pro');
    const [record] = await server.services.accounts.listKeys(account.id);
    assert.equal(await status(key), 200);
    await server.services.accounts.revokeKey(record!.prefix, account.id);
    assert.equal(await status(key), 401);
  });

  // A key's owner read on SQLite is kept while the database is unchanged (accounts/recent-owners.ts):
  // another process's commit must reach the very next request.
  test('keys.revoked-elsewhere: a key revoked by another connection is refused from the next request on', async () => {
    const { key, account } = await server.account('pro');
    assert.equal(await status(key), 200);
    assert.equal(await status(key), 200);
    const connection = await otherConnection(server.dataDir);
    try {
      await connection.run(
        'UPDATE api_keys SET revoked_at = ? WHERE account_id = ?',
        new Date().toISOString(),
        account.id,
      );
    } finally {
      await connection.close();
    }
    assert.equal(await status(key), 401);
  });

  test('keys.plan-elsewhere: a plan changed by another connection counts from the next request on', async () => {
    const { key, account } = await server.account('pro');
    assert.equal(await status(key), 200);
    const connection = await otherConnection(server.dataDir);
    try {
      await connection.run('UPDATE accounts SET plan = ? WHERE id = ?', 'free', account.id);
      assert.equal(await status(key), 403);
      await connection.run('UPDATE accounts SET plan = ? WHERE id = ?', 'pro', account.id);
      assert.equal(await status(key), 200);
    } finally {
      await connection.close();
    }
  });
});
