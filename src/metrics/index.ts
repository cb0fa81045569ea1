import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { Meter } from '../metering/meter.ts';
import type { QuotaCounter } from '../quota/quota.ts';
import { RedisQuotaCounter } from '../quota/redis.ts';
import type { Services } from '../services.ts';
import { countDecisions } from './quota.ts';
import { timeRequests } from './requests.ts';
import { readStateWhenScraped, type StateSources } from './state.ts';

export type MetricSources = StateSources & Pick<Services, 'quota'>;

/**
 * The Prometheus metrics of one set of services (METRICS_PORT): a registry of its own, never
 * prom-client's global one, so that several servers in one process (the tests) each publish their
 * own. Figures of state are read from the services when scraped (state.ts); only what happens is
 * counted as it does: answers (requests.ts), quota decisions (quota.ts), Redis errors.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly quota: QuotaCounter;

  constructor(sources: MetricSources) {
    collectDefaultMetrics({ register: this.registry });
    this.quota = countDecisions(sources.quota, this.registry);
    readStateWhenScraped(sources, this.registry);
    if (sources.quota instanceof RedisQuotaCounter) {
      const errors = new Counter({
        name: 'redis_errors_total',
        help:
          'Errors the Redis connection reported (lost, refused, timed out while connecting); ' +
          'ioredis reconnects by itself.',
        registers: [this.registry],
      });
      sources.quota.onConnectionError(() => errors.inc());
    }
  }

  /** The services as the app should see them: the same, with a meter whose quota counter counts its decisions. */
  observing(services: Services): Services {
    return { ...services, quota: this.quota, meter: new Meter(this.quota, services.catalog, services.clock) };
  }

  /** Times the app's answers: called once by buildApp, before its routes. */
  timeRequests(app: FastifyInstance): void {
    timeRequests(app, this.registry);
  }

  /** The text Prometheus reads, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
