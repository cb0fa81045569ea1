import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config.ts';
import type { Services } from '../../../src/services.ts';
import { createServices } from '../../../src/wiring.ts';
import { sine } from '../../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../../audio/helpers/wav.ts';
import { removeBackend, SHARED, sharedBackendsMissing, sharedEnv } from '../../helpers/backend.ts';
import { runCli } from '../../helpers/cli.ts';
import { startServe, type ServeProcess } from '../../helpers/process.ts';
import { addSound } from '../../helpers/sounds.ts';
import { csrfToken, WebClient } from '../../dashboard/helpers/web-client.ts';

const skip = await sharedBackendsMissing();

/** Polls until `check` holds or `ms` pass; returns whether it held. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('scale-out: two server processes sharing PostgreSQL and Redis', { skip }, () => {
  let dataDir: string;
  let env: Record<string, string>;
  /** A third instance in this process, for setting things up. */
  let services: Services;
  let instances: ServeProcess[];

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sc-instances-'));
    env = await sharedEnv(dataDir);
    services = await createServices(loadConfig(env));
    instances = await Promise.all([startServe(env), startServe(env)]);
  });

  after(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.stop()));
    await services?.close();
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir, SHARED.databaseUrl);
  });

  const get = (instance: ServeProcess, pathAndQuery: string, key: string) =>
    fetch(instance.url + pathAndQuery, { headers: { 'x-api-key': key } });

  test(
    'instances.quota: 3,000 concurrent requests of one Pro ' +
      'account over both give exactly 2,500 × 200 and 500 × 429',
    async () => {
      const account = await services.accounts.createAccount(`quota-${Date.now()}@example.com`, 'pro');
      const { key } = await services.accounts.createKey(account.id, 'load');
      const statuses = new Map<number, number>();
      let next = 0;
      // 200 requests in flight at any time, alternating between the instances.
      await Promise.all(
        Array.from({ length: 200 }, async () => {
          while (next < 3000) {
            const n = next++;
            const response = await get(instances[n % 2]!, '/api/v1/sounds/popular?limit=1', key);
            await response.arrayBuffer();
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          }
        }),
      );
      assert.deepEqual(Object.fromEntries(statuses), { 200: 2500, 429: 500 });
    },
  );

  test('instances.revoke: a key revoked on the command line is refused by both instances within a second', async () => {
    const account = await services.accounts.createAccount(`revoke-${Date.now()}@example.com`, 'pro');
    const created = await services.accounts.createKey(account.id, 'to revoke');
    for (const instance of instances)
      assert.equal((await get(instance, '/api/v1/sounds/popular', created.key)).status, 200);
    const revoked = await runCli(['keys', 'revoke', created.record.prefix], env);
    assert.equal(revoked.status, 0, revoked.stderr);
    for (const instance of instances) {
      assert.ok(
        await within(1000, async () => (await get(instance, '/api/v1/sounds/popular', created.key)).status === 401),
        instance.url,
      );
    }
  });

  test('instances.downloads: downloads through both instances add up exactly, and both rank by the sum', async () => {
    const account = await services.accounts.createAccount(`downloads-${Date.now()}@example.com`, 'enterprise');
    const { key } = await services.accounts.createKey(account.id, 'downloads');
    const { id } = await addSound(services, { name: 'Shared Download Bell', tags: ['shared-downloads'] });
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, n) => get(instances[n % 2]!, `/api/v1/sounds/${id}/download`, key)),
    );
    assert.deepEqual(
      responses.map((response) => response.status),
      Array(60).fill(200),
    );
    for (const instance of instances) {
      const top = async () => {
        const body = (await (await get(instance, '/api/v1/sounds/popular?limit=1', key)).json()) as {
          data: Array<{ id: string; numDownloads: number }>;
        };
        return body.data[0];
      };
      // Each instance writes its downloads once a second; the other reads them within 0.1 s after.
      assert.ok(
        await within(3000, async () => (await top())?.numDownloads === 60),
        `${instance.url}: ${JSON.stringify(await top())}`,
      );
      assert.equal((await top())?.id, id);
    }
  });

  test(
    'instances.stateless: a URL signed by one instance plays on ' +
      'the other; a dashboard session and its form tokens work on both',
    async () => {
      const account = await services.accounts.createAccount(`stateless-${Date.now()}@example.com`, 'pro');
      const { key } = await services.accounts.createKey(account.id, 'urls');
      const { id } = await addSound(services, { name: 'Shared Signed Gong' });
      const [a, b] = instances as [ServeProcess, ServeProcess];
      const { data } = (await (await get(a, `/api/v1/sounds/${id}/stream`, key)).json()) as {
        data: { stream_url: string };
      };
      const onB = new URL(data.stream_url);
      onB.host = new URL(b.url).host;
      const played = await fetch(onB);
      assert.equal(played.status, 200);
      assert.equal(played.headers.get('content-type'), 'audio/mpeg');

      // Signed up on one instance; the session cookie and a form token from it work on the other.
      const email = `stateless-web-${Date.now()}@example.com`;
      const onA = new WebClient(a.url);
      assert.equal((await onA.signUp(email)).status, 303);
      const other = new WebClient(b.url);
      for (const [name, value] of onA.cookies) other.cookies.set(name, value);
      const overview = await other.get('/dashboard');
      assert.equal(overview.status, 200);
      assert.ok(overview.text.includes(email), 'signed in on the other instance');
      const tokenFromA = csrfToken((await onA.get('/dashboard')).text);
      const signedOut = await other.post('/dashboard/sign-out', { _csrf: tokenFromA });
      assert.equal(signedOut.status, 303, 'a form token made by one instance is accepted by the other');
      assert.equal((await onA.get('/dashboard')).status, 303, 'signed out on both');
    },
  );

  test('instances.ingest: a sound ingested while both run is found by both within a second', async () => {
    const account = await services.accounts.createAccount(`ingest-${Date.now()}@example.com`, 'pro');
    const { key } = await services.accounts.createKey(account.id, 'search');
    const folder = path.join(dataDir, 'incoming');
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, 'shared zebra chime.wav'),
      encodeWavFloat32({ sampleRate: 44_100, channels: [sine(44_100, 660, -12, 22_050)] }),
    );
    const ingested = await runCli(['ingest', folder, '--json'], env);
    assert.equal(ingested.status, 0, ingested.stderr);
    assert.equal(ingested.json.added, 1);
    for (const instance of instances) {
      const found = async () => {
        const body = (await (await get(instance, '/api/v1/sounds?q=zebra', key)).json()) as {
          pagination: { total: number };
        };
        return body.pagination.total === 1;
      };
      assert.ok(await within(1000, found), instance.url);
    }
  });
});
