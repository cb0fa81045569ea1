import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createProgress } from '../ingest/progress.ts';
import { findDemoRecordings, ingestDemoRecordings, RECORDINGS_PACKAGE } from '../ingest/demo-recordings.ts';
import { seedCatalog } from '../ingest/pipeline.ts';
import type { Services } from '../services.ts';
import { DEFAULT_SEED } from './seed.ts';

export const DEMO_EMAIL = 'demo@sound-catalog.local';
/**
 * Sounds made before the server listens. Every category and the public samples are among the
 * first ones; the rest follow while the server already answers, so a first start is ready in
 * well under a minute (seeding 1,000 sounds takes longer than that on two cores: docs/performance.md).
 */
const BEFORE_LISTENING = 250;

export interface FirstStart {
  banner(baseUrl: string): string;
  /** Makes the rest of the demo catalog; resolves when done or stopped. */
  finish(signal: AbortSignal): Promise<void>;
}

/**
 * On an empty catalog: synthesizes the first demo sounds, creates the demo Pro account and a
 * key, and returns the banner that prints the key this once. Null when the catalog has sounds.
 */
export async function prepareFirstStart(
  services: Services,
  log: FastifyBaseLogger,
  signal: AbortSignal,
  beforeListening = BEFORE_LISTENING,
): Promise<FirstStart | null> {
  // The marker says a first start began and did not finish: that one is carried on, not skipped.
  const marker = path.join(services.config.dataDir, 'demo-catalog-in-progress');
  const resuming = existsSync(marker);
  if ((await services.catalog.size()) > 0 && !resuming) return null;
  await writeFile(marker, `${new Date(services.clock()).toISOString()}\n`);
  const total = services.config.demoCount;
  const first = Math.min(total, beforeListening);
  log.info({ total }, 'empty catalog: synthesizing the demo catalog (SOUND_CATALOG_DEMO=0 turns this off)');
  process.stderr.write(
    `First start: making the demo catalog (${total} synthesized sounds, encoded to MP3 and measured)...\n`,
  );
  await seedCatalog(services, { count: first, seed: DEFAULT_SEED, progress: createProgress('sounds'), signal });
  if (signal.aborted) return null;

  const account =
    (await services.accounts.findByEmail(DEMO_EMAIL)) ?? (await services.accounts.createAccount(DEMO_EMAIL, 'pro'));
  // A demo account from an earlier, interrupted first start may already hold its keys.
  for (const key of await services.accounts.listKeys(account.id))
    await services.accounts.revokeKey(key.prefix, account.id);
  const created = await services.accounts.createKey(account.id, 'demo');

  return {
    banner: (base) =>
      `\n  Demo account ${DEMO_EMAIL} (Pro plan). Its API key, shown this once:\n\n    ${created.key}\n\n` +
      `  Try it:  curl -H "x-api-key: ${created.key}" "${base}/api/v1/sounds?q=laser&max_duration=1"\n` +
      (total > first ? `  The other ${total - first} demo sounds are being made in the background.\n\n` : '\n'),
    async finish(stop) {
      if (total > first) {
        await seedCatalog(services, { from: first, count: total, seed: DEFAULT_SEED, signal: stop });
        if (stop.aborted) return;
      }
      await addRecordings(services, log, stop);
      if (stop.aborted) return;
      log.info({ total: await services.catalog.size() }, 'demo catalog complete');
      await rm(marker, { force: true });
    },
  };
}

/**
 * The real recordings of the demo catalog, after the synthesized sounds and through the same
 * ingest (an optional package: without it the demo catalog is synthesized only, and the log says so).
 */
async function addRecordings(services: Services, log: FastifyBaseLogger, stop: AbortSignal): Promise<void> {
  if (services.config.demoRecordings === 0) return;
  const recordings = (await findDemoRecordings()).slice(0, services.config.demoRecordings);
  if (recordings.length === 0) {
    log.info(`no real recordings for the demo catalog: the optional package ${RECORDINGS_PACKAGE} is not installed`);
    return;
  }
  const result = await ingestDemoRecordings(services, recordings, { signal: stop });
  if (stop.aborted) return;
  log.info(
    { added: result.added, updated: result.updated, failed: result.failed },
    "real CC0 recordings (Sonic Pi's samples, from Freesound) added to the demo catalog",
  );
}
