import { Counter, Gauge, type Registry } from 'prom-client';
import type { CatalogService } from '../catalog/service.ts';
import type { DatabaseHandle } from '../db/index.ts';
import type { RenditionService, RenditionStats } from '../media/renditions.ts';

export interface StateSources {
  catalog: Pick<CatalogService, 'indexState'>;
  database: Pick<DatabaseHandle, 'pool'>;
  renditions: Pick<RenditionService, 'stats'>;
}

/**
 * The metrics that describe the services' state, read from them when Prometheus scrapes (each
 * metric's `collect`), so the services keep no metrics of their own and requests do no work for
 * them. Figures a service counts since it started are published as counters.
 */
export function readStateWhenScraped(sources: StateSources, registry: Registry): void {
  const registers = [registry];
  new Gauge({
    name: 'search_index_sounds',
    help: "Sounds in this instance's search index (0 until the index is built).",
    registers,
    collect() {
      this.set(sources.catalog.indexState().sounds ?? 0);
    },
  });
  new Gauge({
    name: 'catalog_change_feed_lag_seconds',
    help:
      'How long the oldest catalog change this index knows of has waited to be applied; 0 when it is current. ' +
      'Grows while reading the change log fails.',
    registers,
    collect() {
      this.set(sources.catalog.indexState().waitingMs / 1000);
    },
  });
  readPool(sources.database, registers);
  readRenditions(sources.renditions, registers);
}

function readPool(database: StateSources['database'], registers: Registry[]): void {
  const pool = database.pool?.bind(database);
  if (!pool) return;
  new Gauge({
    name: 'database_pool_connections',
    help: 'PostgreSQL connections of the pool, by state (idle, busy), and the most it opens (max).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const figures = pool();
      this.set({ state: 'idle' }, figures.idle);
      this.set({ state: 'busy' }, figures.open - figures.idle);
      this.set({ state: 'max' }, figures.max);
    },
  });
  new Gauge({
    name: 'database_pool_waiting_queries',
    help: 'Queries waiting for a PostgreSQL connection because every one is busy.',
    registers,
    collect() {
      this.set(pool().waiting);
    },
  });
  new Counter({
    name: 'database_pool_errors_total',
    help: 'PostgreSQL connections that failed while open (the server went away, say).',
    registers,
    collect() {
      setCounter(this, pool().errors);
    },
  });
}

function readRenditions(renditions: StateSources['renditions'], registers: Registry[]): void {
  // One read of the service per scrape, shared by the five metrics below: a scrape starts every
  // metric's collect at once, before any read finishes.
  // A read that fails (the database away) keeps the last figures read, rather than failing the scrape.
  let reading: Promise<RenditionStats | null> | null = null;
  const read = () =>
    (reading ??= renditions
      .stats()
      .catch(() => null)
      .finally(() => (reading = null)));
  const gauge = (name: string, help: string, figure: (figures: RenditionStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const figures = await read();
        if (figures) this.set(figure(figures));
      },
    });
  const counter = (name: string, help: string, figure: (figures: RenditionStats) => number) =>
    new Counter({
      name,
      help,
      registers,
      async collect() {
        const figures = await read();
        if (figures) setCounter(this, figure(figures));
      },
    });
  gauge('renditions_waiting', 'Renditions asked for and not being made yet.', (figures) => figures.waiting);
  gauge('renditions_making', 'Renditions being made now, each on a worker thread.', (figures) => figures.making);
  counter('renditions_made_total', 'Renditions this instance made since it started.', (figures) => figures.made);
  counter(
    'renditions_removed_total',
    'Renditions this instance removed since it started, to stay under RENDITIONS_MAX_BYTES.',
    (figures) => figures.removed,
  );
  gauge(
    'renditions_stored_bytes',
    'Bytes of every stored rendition, all instances together.',
    (figures) => figures.bytes,
  );
}

/** A counter whose count the service keeps: it is set to that count when scraped. */
function setCounter(counter: Counter, value: number): void {
  counter.reset();
  counter.inc(value);
}
