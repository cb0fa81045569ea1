import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { CatalogRecord } from '../../src/catalog/change-feed.ts';
import { createServices } from '../../src/wiring.ts';
import { configFor, otherConnection } from '../helpers/backend.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import {
  filtersArb,
  recordArb,
  referenceSamples,
  referenceSearch,
  sampleFiltersArb,
} from '../../packages/catalog-index/test/helpers/reference.ts';

/**
 * The search index as another instance builds it from the database this run uses (SQLite, or
 * PostgreSQL with DATABASE_URL): a generated catalog written through the real writer, loaded
 * back, and every search compared with the plain reference. Run on both engines by .ci/run.
 */
describe('search on the database', () => {
  test(
    'search-database.reference: a catalog written to the database and loaded from ' +
      'it answers every search, sample list and popular list as the reference does',
    async () => {
      const server = await startServer();
      try {
        const rows: CatalogRecord[] = [];
        for (const [seq, item] of fc.sample(recordArb, { numRuns: 250, seed: 42 }).entries()) {
          server.clock.now = Date.UTC(2026, 0, 1, 0, 0, item.created);
          const category = item.category ?? 'SFX';
          const timing = { onset_ms: item.onsetMs, peak_ms: null, tail_ms: null };
          const loudness = { integrated_lufs: item.lufs, true_peak_db: null };
          const loop = item.loop && { startSample: item.loop[0], endSample: item.loop[0] + item.loop[1] };
          const { id } = await addSound(server.services, {
            name: item.name,
            description: item.description,
            tags: item.tags,
            category,
            duration: item.duration,
            sample: item.isSample,
            timing,
            loudness,
            loop,
          });
          for (let n = 0; n < item.numDownloads; n++) assert.ok(await server.services.catalog.countDownload(id));
          rows.push({
            seq,
            id,
            name: item.name,
            description: item.description,
            tags: item.tags,
            category,
            license: 'CC0',
            duration: item.duration,
            timing,
            loudness,
            numDownloads: item.numDownloads,
            isSample: item.isSample,
            loop,
            createdAt: new Date(server.clock.now).toISOString(),
          });
        }
        // Downloads reach the database with the next flush: the other instance loads them from there.
        const counted = rows.reduce((sum, row) => sum + row.numDownloads, 0);
        await eventually(
          () => storedDownloads(server.dataDir),
          (stored) => stored === counted,
          5000,
          'the downloads are written',
        );
        const other = await createServices(await configFor(server.dataDir));
        try {
          await other.catalog.start();
          for (const filters of fc.sample(filtersArb, { numRuns: 300, seed: 7 })) {
            const page = await other.catalog.search(filters);
            assert.deepEqual(
              {
                ids: page.items.map((sound) => sound.id),
                total: page.total,
                ...(page.facets && { facets: page.facets }),
              },
              referenceSearch(rows, filters),
              JSON.stringify(filters),
            );
            for (const sound of page.items)
              assert.deepEqual(sound.loop, rows.find((row) => row.id === sound.id)!.loop, `the loop of ${sound.id}`);
          }
          for (const filters of fc.sample(sampleFiltersArb, { numRuns: 50, seed: 9 })) {
            const samples = await other.catalog.samples(filters);
            assert.deepEqual(
              { ids: samples.items.map((sound) => sound.id), total: samples.total },
              referenceSamples(rows, filters),
              JSON.stringify(filters),
            );
          }
        } finally {
          await other.close();
        }
      } finally {
        await server.close();
      }
    },
  );
});

async function storedDownloads(dataDir: string): Promise<number> {
  const connection = await otherConnection(dataDir, { readonly: true });
  try {
    const [row] = await connection.all<{ n: number | string | null }>('SELECT sum(count) AS n FROM sound_downloads');
    return Number(row?.n ?? 0);
  } finally {
    await connection.close();
  }
}
