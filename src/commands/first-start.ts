import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../services.ts';

export interface FirstStart {
  banner(baseUrl: string): string;
}

const DEMO_EMAIL = 'demo@sound-catalog.local';

/**
 * On an empty catalog: seeds the demo sounds, creates the demo Pro account and its key, and
 * returns the banner that prints the key this once. Returns null when the catalog has sounds.
 */
export async function prepareFirstStart(services: Services, log: FastifyBaseLogger): Promise<FirstStart | null> {
  if ((await services.catalog.size()) > 0) return null;
  log.info('empty catalog: preparing the demo catalog');
  const existing = await services.accountStore.findByEmail(DEMO_EMAIL);
  const account = existing ?? (await services.accounts.createAccount(DEMO_EMAIL, 'pro'));
  const created = await services.accounts.createKey(account.id, 'demo');
  return {
    banner: (base) => `\n  Demo API key (shown once): ${created.key}\n`
      + `  Try it:  curl -H "x-api-key: ${created.key}" "${base}/api/v1/sounds?q=laser"\n\n`,
  };
}
