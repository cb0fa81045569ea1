import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OwnRedis, freePort } from '../../helpers/own-redis.ts';
import { loadConfig } from '../../../src/config.ts';
import { createServices } from '../../../src/wiring.ts';
import { removeBackend, SHARED, sharedBackendsMissing, sharedEnv } from '../../helpers/backend.ts';
import { startServe, type ServeProcess } from '../../helpers/process.ts';

const skip = await sharedBackendsMissing();

/**
 * Stands between the service and PostgreSQL: `cut()` drops every connection and refuses new ones,
 * as a database that went away does; `mend()` lets them through again.
 */
class CuttableProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async mend(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

/** Polls until `check` holds or `ms` pass; returns whether it held. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('outages: PostgreSQL or Redis goes away and comes back', { skip }, () => {
  let dataDir: string;
  let redis: OwnRedis;
  let proxy: CuttableProxy;
  let server: ServeProcess;
  let key: string;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sc-outages-'));
    redis = new OwnRedis(await freePort());
    await redis.start();
    const database = new URL(SHARED.databaseUrl);
    proxy = new CuttableProxy(await freePort(), { host: database.hostname, port: Number(database.port || 5432) });
    await proxy.mend();
    const shared = await sharedEnv(dataDir);
    const throughProxy = new URL(shared.DATABASE_URL!);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(proxy.port);
    const env = { ...shared, DATABASE_URL: throughProxy.href, REDIS_URL: `redis://127.0.0.1:${redis.port}` };
    const setup = await createServices(loadConfig(env));
    try {
      const account = await setup.accounts.createAccount(`outage-${Date.now()}@example.com`, 'pro');
      key = (await setup.accounts.createKey(account.id, 'outage')).key;
    } finally {
      await setup.close();
    }
    server = await startServe(env);
  });

  after(async () => {
    await server?.stop();
    await redis?.stop();
    await proxy?.cut();
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir, SHARED.databaseUrl);
  });

  const search = () => fetch(`${server.url}/api/v1/sounds?q=anything`, { headers: { 'x-api-key': key } });
  const ready = async () => (await fetch(`${server.url}/readyz`)).status;

  test(
    'outage.redis: without Redis requests answer 500 at once and ' +
      'readiness is 503; with it back, both recover by themselves',
    async () => {
      assert.equal((await search()).status, 200);
      await redis.stop();
      const started = Date.now();
      const refused = await search();
      assert.equal(refused.status, 500);
      assert.deepEqual(await refused.json(), { error: 'Internal server error' });
      assert.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`);
      assert.equal(await ready(), 503);
      await redis.start();
      assert.ok(await within(10_000, async () => (await search()).status === 200), 'requests are counted again');
      assert.equal(await ready(), 200);
    },
  );

  test(
    'outage.postgres: without PostgreSQL requests answer 500 ' +
      'within bounded time and readiness is 503; then both recover',
    async () => {
      assert.equal((await search()).status, 200);
      await proxy.cut();
      const started = Date.now();
      const refused = await search();
      assert.equal(refused.status, 500);
      assert.deepEqual(await refused.json(), { error: 'Internal server error' });
      assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
      assert.equal(await ready(), 503);
      await proxy.mend();
      assert.ok(await within(10_000, async () => (await search()).status === 200), 'requests work again');
      assert.equal(await ready(), 200);
    },
  );
});
