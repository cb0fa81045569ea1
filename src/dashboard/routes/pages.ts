import type { FastifyInstance } from 'fastify';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { toList, toWords } from '../../catalog/sound.ts';
import type { Dashboard } from '../context.ts';
import { homePage } from '../pages/home.ts';
import { overviewPage } from '../pages/overview.ts';
import { upgradePage } from '../pages/upgrade.ts';
import { requireAccount } from '../sessions/visitor.ts';
import { soundViews } from '../sound-views.ts';
import { usageSummary } from '../usage.ts';
import { sendPage } from './send-page.ts';

/** The home page with the public samples; it lives at `/`, outside the /dashboard prefix. */
export function registerHomeRoute(scope: FastifyInstance, dashboard: Dashboard): void {
  scope.get<{ Querystring: { q?: unknown; tags?: unknown } }>('/', async (request, reply) => {
    const q = typeof request.query.q === 'string' ? request.query.q.slice(0, 200) : '';
    const tags = typeof request.query.tags === 'string' ? request.query.tags.slice(0, 500) : '';
    const found = await dashboard.catalog.samples({
      words: toWords(q),
      tags: toList(tags),
      limit: LIST_LIMITS.samples.max,
    }); // what the public sample API shows
    const samples = await soundViews(dashboard, found.items);
    return sendPage(reply, homePage({ visitor: request.visitor, samples, q, tags }));
  });
}

export function registerOverviewRoutes(scope: FastifyInstance, dashboard: Dashboard): void {
  const services = dashboard;
  scope.get('/', async (request, reply) => {
    const account = requireAccount(request);
    const [usage, keys] = await Promise.all([usageSummary(services, account), services.accounts.listKeys(account.id)]);
    return sendPage(
      reply,
      overviewPage({ visitor: request.visitor, account, usage, keyCount: keys.length, baseUrl: services.baseUrl() }),
    );
  });

  scope.get('/upgrade', async (request, reply) => sendPage(reply, upgradePage(request.visitor)));
}
