import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { PlanName } from '../../src/accounts/plans.ts';
import type { Account } from '../../src/accounts/store.ts';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Services } from '../../src/services.ts';
import { createServices, type ServiceOptions } from '../../src/wiring.ts';
import { backendEnv, prepareBackend, removeBackend } from './backend.ts';
import { checkAnswersIn } from './openapi-answers.ts';

/** A clock the test moves by hand. */
export class TestClock {
  constructor(public now = Date.parse('2026-06-15T12:00:00Z')) {}
  readonly read = () => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  services: Services;
  clock: TestClock;
  dataDir: string;
  /** GET through the real HTTP stack; `key` goes into x-api-key. */
  get(pathAndQuery: string, options?: { key?: string; headers?: Record<string, string> }): Promise<Response>;
  /** An account on the plan, with one key. */
  account(plan: PlanName): Promise<{ account: Account; key: string }>;
  /** Shuts down as SIGTERM would; the data folder is removed unless `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts the real app on a free port, over a fresh SQLite file in a temporary data folder, or
 * over the data folder of an earlier server (`dataDir`), as a restart would.
 */
export async function startServer(
  options: {
    env?: Record<string, string>;
    clock?: TestClock;
    dataDir?: string;
    app?: AppOptions;
    services?: Omit<ServiceOptions, 'clock'>;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'sound-catalog-test-')));
  const clock = options.clock ?? new TestClock();
  await prepareBackend(dataDir);
  const config = loadConfig({
    SOUND_CATALOG_DATA: dataDir,
    PORT: '0',
    SOUND_CATALOG_DEMO: '0',
    ...backendEnv(dataDir),
    ...options.env,
  });
  const services = await createServices(config, { ...options.services, clock: clock.read });
  const app = await buildApp(services, options.app);
  // Every answer it sends is checked against the document it serves.
  checkAnswersIn(app);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  services.listeningAt(url);
  return {
    url,
    app,
    services,
    clock,
    dataDir,
    get(pathAndQuery, { key, headers = {} } = {}) {
      return fetch(url + pathAndQuery, { headers: { ...(key !== undefined && { 'x-api-key': key }), ...headers } });
    },
    async account(plan) {
      const email = `${plan}-${randomBytes(4).toString('hex')}@example.com`;
      const account = await services.accounts.createAccount(email, plan === 'free' ? 'pro' : plan);
      const { key } = await services.accounts.createKey(account.id, 'test');
      if (plan === 'free') await services.accounts.setPlan(email, 'free');
      return { account: (await services.accounts.findById(account.id))!, key };
    },
    async close({ keepData = false } = {}) {
      await app.close();
      await services.close();
      if (!keepData) {
        await rm(dataDir, { recursive: true, force: true });
        await removeBackend(dataDir);
      }
    },
  };
}
