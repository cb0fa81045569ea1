import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createProgress } from '../ingest/progress.ts';
import { seedCatalog } from '../ingest/pipeline.ts';
import type { Services } from '../services.ts';
import { DEFAULT_SEED } from './seed.ts';

export interface FirstStart {
  banner(baseUrl: string): string;
}

export const DEMO_EMAIL = 'demo@sound-catalog.local';

/**
 * On an empty catalog: synthesizes the demo sounds, creates the demo Pro account and a key, and
 * returns the banner that prints the key this once. Returns null when the catalog has sounds.
 */
export async function prepareFirstStart(services: Services, log: FastifyBaseLogger, signal?: AbortSignal): Promise<FirstStart | null> {
  // The marker says a first start began and did not finish: that one is carried on, not skipped.
  const marker = path.join(services.config.dataDir, 'demo-catalog-in-progress');
  if ((await services.catalog.size()) > 0 && !existsSync(marker)) return null;
  await writeFile(marker, new Date(services.clock()).toISOString() + '\n');
  const count = services.config.demoCount;
  log.info({ count }, 'empty catalog: synthesizing the demo catalog (SOUND_CATALOG_DEMO=0 turns this off)');
  process.stderr.write(`First start: making ${count} demo sounds (synthesized, encoded to MP3 and measured)...\n`);
  const { added } = await seedCatalog(services, { count, seed: DEFAULT_SEED, progress: createProgress('sounds'), signal });
  if (signal?.aborted) return null;
  log.info({ added }, 'demo catalog ready');
  const account = (await services.accountStore.findByEmail(DEMO_EMAIL)) ?? (await services.accounts.createAccount(DEMO_EMAIL, 'pro'));
  // A demo account from an earlier, interrupted first start may already hold its two keys.
  for (const key of await services.accounts.listKeys(account.id)) await services.accounts.revokeKey(key.prefix, account.id);
  const created = await services.accounts.createKey(account.id, 'demo');
  await rm(marker, { force: true });
  return {
    banner: (base) => `\n  Demo account ${DEMO_EMAIL} (Pro plan). Its API key, shown this once:\n\n    ${created.key}\n\n`
      + `  Try it:  curl -H "x-api-key: ${created.key}" "${base}/api/v1/sounds?q=laser&max_duration=1"\n\n`,
  };
}
