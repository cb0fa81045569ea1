import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

describe('cli: accounts, keys, samples', () => {
  let dataDir: string;
  let env: Record<string, string>;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-cli-'));
    env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  test('cli.accounts: create and set-plan print one JSON object; errors are one line and non-zero', async () => {
    const created = await runCli(['accounts', 'create', '--email', 'Ana@Example.com', '--plan', 'free', '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    assert.deepEqual(Object.keys(created.json).sort(), ['email', 'id', 'plan']);
    assert.equal(created.json.email, 'ana@example.com');
    assert.equal(created.json.plan, 'free');
    const upgraded = await runCli(
      ['accounts', 'set-plan', '--email', 'ana@example.com', '--plan', 'pro', '--json'],
      env,
    );
    assert.deepEqual(upgraded.json, { ...created.json, plan: 'pro' });

    const duplicate = await runCli(
      ['accounts', 'create', '--email', 'ana@example.com', '--plan', 'pro', '--json'],
      env,
    );
    assert.notEqual(duplicate.status, 0);
    assert.equal(duplicate.stdout, '');
    assert.match(duplicate.stderr, /already exists/);
    assert.equal(duplicate.stderr.trim().split('\n').length, 1);
    const badPlan = await runCli(['accounts', 'create', '--email', 'b@example.com', '--plan', 'gold', '--json'], env);
    assert.notEqual(badPlan.status, 0);
    assert.match(badPlan.stderr, /--plan must be one of free, pro, enterprise/);
    const unknown = await runCli(['accounts', 'set-plan', '--email', 'nobody@example.com', '--plan', 'pro'], env);
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /no account/);
  });

  test(
    'cli.keys: create shows the key once, list shows ' + 'prefixes only, the plan limit holds, revoke works',
    async () => {
      await runCli(['accounts', 'create', '--email', 'keys@example.com', '--plan', 'pro', '--json'], env);
      const first = await runCli(['keys', 'create', '--email', 'keys@example.com', '--name', 'backend', '--json'], env);
      assert.equal(first.status, 0, first.stderr);
      assert.deepEqual(Object.keys(first.json).sort(), ['account', 'key', 'name', 'prefix']);
      assert.match(first.json.key, /^sc_[0-9A-Za-z]{49}$/);
      assert.ok(first.json.key.startsWith(first.json.prefix));
      assert.equal(first.json.name, 'backend');
      assert.equal(first.json.account, 'keys@example.com');
      await runCli(['keys', 'create', '--email', 'keys@example.com', '--json'], env);
      const third = await runCli(['keys', 'create', '--email', 'keys@example.com', '--json'], env);
      assert.notEqual(third.status, 0);
      assert.match(third.stderr, /allows 2 API keys/);

      const listed = await runCli(['keys', 'list', '--email', 'keys@example.com', '--json'], env);
      assert.equal(listed.json.keys.length, 2);
      assert.deepEqual(Object.keys(listed.json.keys[0]).sort(), ['created_at', 'last_used_at', 'name', 'prefix']);
      assert.ok(!listed.stdout.includes(first.json.key), 'the full key is never shown again');

      const revoked = await runCli(['keys', 'revoke', first.json.prefix, '--json'], env);
      assert.deepEqual(revoked.json, { revoked: first.json.prefix });
      const again = await runCli(['keys', 'revoke', first.json.prefix, '--json'], env);
      assert.notEqual(again.status, 0);
      const afterRevoke = await runCli(['keys', 'list', '--email', 'keys@example.com', '--json'], env);
      assert.equal(afterRevoke.json.keys.length, 1);
    },
  );

  test('cli.free: a free account cannot create keys', async () => {
    await runCli(['accounts', 'create', '--email', 'free@example.com', '--plan', 'free'], env);
    const result = await runCli(['keys', 'create', '--email', 'free@example.com', '--json'], env);
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /no API access/);
  });

  test('cli.usage: unknown commands and missing flags exit non-zero with a reason', async () => {
    assert.equal((await runCli(['frobnicate'], env)).status, 2);
    const missing = await runCli(['keys', 'create', '--json'], env);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--email is required/);
  });
});

describe('cli: samples set against a live server', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('cli.revoke-live: a key revoked by the command line stops working on the running server at once', async () => {
    const { account, key } = await server.account('pro');
    assert.equal((await server.get('/api/v1/sounds', { key })).status, 200);
    const [record] = await server.services.accounts.listKeys(account.id);
    const env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
    const revoked = await runCli(['keys', 'revoke', record!.prefix, '--json'], env);
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.equal((await server.get('/api/v1/sounds', { key })).status, 401);
  });

  test('cli.samples: marks exactly the given sounds as the public samples; unknown ids change nothing', async () => {
    const a = await addSound(server.services, { name: 'A', sample: true });
    const b = await addSound(server.services, { name: 'B' });
    const c = await addSound(server.services, { name: 'C' });
    const env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
    const result = await runCli(['samples', 'set', b.id, c.id, '--json'], env);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.json, { samples: 2 });
    const sampleIds = async () =>
      ((await (await server.get('/api/v1/sounds/sample')).json()).data as Array<{ id: string }>)
        .map((s) => s.id)
        .sort();
    // Another process's change reaches the search index within a second (catalog change feed).
    await eventually(
      sampleIds,
      (ids) => JSON.stringify(ids) === JSON.stringify([b.id, c.id].sort()),
      1000,
      'the new samples are listed',
    );
    const bad = await runCli(['samples', 'set', a.id, 'nope', '--json'], env);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /nope/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await sampleIds(), [b.id, c.id].sort(), 'a refused samples set changes nothing');
  });
});
