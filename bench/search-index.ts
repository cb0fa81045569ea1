/**
 * The search index alone, in process:  node --import tsx bench/search-index.ts DATA_DIR [extensions]
 * (fill DATA_DIR first with bench/fill-catalog.ts). Builds the index from the data folder, then
 * answers the API benchmark's 20,000-query Zipf mix (bench/query-mix.ts; with `extensions`, the
 * mix that also sorts by relevance, asks for facets and bounds onset and loudness) twice over and prints the
 * build time, the heap, the latency distribution per query and which kinds of query cost most.
 * No HTTP, no signing, no serialization: what the index itself costs.
 */
import { searchFiltersOf } from '../src/shapes/params.ts';
import { CATEGORIES, FACETS, type Category, type Facet, type SearchFilters, type SearchSort, type SortOrder } from '../src/catalog/sound.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/wiring.ts';
import { extensionMix, generator, queryMix } from './query-mix.ts';

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('usage: node --import tsx bench/search-index.ts DATA_DIR\n');
  process.exit(2);
}
const services = await createServices(loadConfig({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' }));
const built = await services.catalog.start();
console.log(JSON.stringify({ ...built, heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e6), rssMb: Math.round(process.memoryUsage().rss / 1e6) }));

const random = generator(7);
const mix = process.argv[3] === 'extensions' ? extensionMix(random, 20_000) : queryMix(random, 20_000);
const filters = mix.map(toFilters);
for (let round = 1; round <= 2; round++) {
  const times: Array<{ us: number; kind: string }> = [];
  for (let i = 0; i < 20_000; i++) {
    const query = filters[mix.indexOf(random.zipf(mix))]!;
    const started = performance.now();
    await services.catalog.search(query);
    times.push({ us: (performance.now() - started) * 1000, kind: kindOf(query) });
  }
  const sorted = times.map((time) => time.us).sort((a, b) => a - b);
  const at = (share: number) => Math.round(sorted[Math.floor(share * (sorted.length - 1))]!);
  console.log(JSON.stringify({ round, meanUs: Math.round(sorted.reduce((a, b) => a + b) / sorted.length), p50Us: at(0.5), p99Us: at(0.99), maxUs: at(1) }));
  if (round === 2) {
    const kinds = new Map<string, { us: number; n: number }>();
    for (const { us, kind } of times) {
      const entry = kinds.get(kind) ?? { us: 0, n: 0 };
      entry.us += us;
      entry.n++;
      kinds.set(kind, entry);
    }
    const all = times.reduce((sum, time) => sum + time.us, 0);
    for (const [kind, { us, n }] of [...kinds].sort((a, b) => b[1].us - a[1].us).slice(0, 10)) {
      console.log(JSON.stringify({ kind, shareOfTime: `${((100 * us) / all).toFixed(1)}%`, queries: n, meanUs: Math.round(us / n) }));
    }
  }
}
await services.close();

function toFilters(path: string): SearchFilters {
  const query = Object.fromEntries(new URL(path, 'http://bench').searchParams);
  const categories = query.category?.split(',').map((name) => name.toUpperCase()).filter((name): name is Category => (CATEGORIES as readonly string[]).includes(name));
  return searchFiltersOf({
    q: query.q, category: categories, tags: query.tags,
    min_duration: query.min_duration === undefined ? undefined : Number(query.min_duration),
    max_duration: query.max_duration === undefined ? undefined : Number(query.max_duration),
    max_onset_ms: query.max_onset_ms === undefined ? undefined : Number(query.max_onset_ms),
    min_lufs: query.min_lufs === undefined ? undefined : Number(query.min_lufs),
    max_lufs: query.max_lufs === undefined ? undefined : Number(query.max_lufs),
    facets: query.facets?.split(',').filter((name): name is Facet => (FACETS as readonly string[]).includes(name)),
    sort: (query.sort ?? 'downloads') as SearchSort, order: (query.order ?? 'desc') as SortOrder,
    page: Number(query.page ?? 1), limit: Number(query.limit ?? 20),
  });
}

/** words (w1, w2, short for a 1-2 letter word), then which filters: what a query's cost depends on. */
function kindOf(query: SearchFilters): string {
  const words = query.words.length === 0 ? 'no q' : query.words.some((word) => word.length <= 2) ? 'short word' : `${query.words.length} word(s)`;
  const parts = [words, query.categories.length > 0 && 'category', query.tags.length > 0 && 'tags',
    (query.minDuration !== undefined || query.maxDuration !== undefined) && 'duration', query.page > 1 && 'page > 1',
    query.sort === 'relevance' && 'relevance', query.facets?.length && `facets ${query.facets.join(',')}`,
    (query.maxOnsetMs !== undefined || query.minLufs !== undefined) && 'onset/LUFS'];
  return parts.filter(Boolean).join(' + ');
}
