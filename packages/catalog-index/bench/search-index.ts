/**
 * The search index alone, in process:
 *   node --import tsx bench/search-index.ts [SOUNDS] [extensions]      (default 100000 sounds)
 * Builds an index of a made-up catalog (synthetic.ts), then answers a mix of 20,000 different
 * searches picked with Zipf frequencies (with `extensions`, the mix that also sorts by relevance,
 * asks for facets and bounds onset and loudness) twice over, and prints the build time, the heap,
 * the latency distribution per query and which kinds of query cost most. No database, no HTTP:
 * what the index itself costs.
 */
import { SearchIndex } from '../src/search-index.ts';
import type { SearchFilters } from '../src/query.ts';
import { WEIGHTS } from '../test/helpers/vectors.ts';
import { catalogPages, generator, searchMix } from './synthetic.ts';

const sounds = Number(process.argv[2] ?? 100_000);
if (!(sounds > 0)) {
  process.stderr.write('usage: node --import tsx bench/search-index.ts [SOUNDS] [extensions]\n');
  process.exit(2);
}
const QUERIES = 20_000;

const index = new SearchIndex({ descriptorWeights: WEIGHTS });
// The build's time is the index's own: the records are made between its calls, not counted.
let building = 0;
const timed = (work: () => void) => {
  const started = performance.now();
  work();
  building += performance.now() - started;
};
timed(() => index.expect(sounds));
for (const page of catalogPages(sounds)) timed(() => index.load(page));
timed(() => index.loaded());
const buildMs = Math.round(building);
const { heapUsed, rss } = process.memoryUsage();
const memory = { heapUsedMb: Math.round(heapUsed / 1e6), rssMb: Math.round(rss / 1e6) };
console.log(JSON.stringify({ sounds: index.count, described: index.described, buildMs, ...memory }));

const random = generator(7);
const mix = searchMix(random, QUERIES, process.argv[3] === 'extensions');
for (let round = 1; round <= 2; round++) {
  const times: Array<{ us: number; kind: string }> = [];
  for (let i = 0; i < QUERIES; i++) {
    const query = random.zipf(mix);
    const begun = performance.now();
    index.search(query);
    times.push({ us: (performance.now() - begun) * 1000, kind: kindOf(query) });
  }
  const sorted = times.map((time) => time.us).sort((a, b) => a - b);
  const at = (share: number) => Math.round(sorted[Math.floor(share * (sorted.length - 1))]!);
  const meanUs = Math.round(sorted.reduce((a, b) => a + b) / sorted.length);
  console.log(JSON.stringify({ round, meanUs, p50Us: at(0.5), p99Us: at(0.99), maxUs: at(1) }));
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
      const shareOfTime = `${((100 * us) / all).toFixed(1)}%`;
      console.log(JSON.stringify({ kind, shareOfTime, queries: n, meanUs: Math.round(us / n) }));
    }
  }
}

/** words (w1, w2, short for a 1-2 letter word), then which filters: what a query's cost depends on. */
function kindOf(query: SearchFilters): string {
  const words =
    query.words.length === 0
      ? 'no q'
      : query.words.some((word) => word.length <= 2)
        ? 'short word'
        : `${query.words.length} word(s)`;
  const parts = [
    words,
    query.categories.length > 0 && 'category',
    query.tags.length > 0 && 'tags',
    (query.minDuration !== undefined || query.maxDuration !== undefined) && 'duration',
    query.page > 1 && 'page > 1',
    query.sort === 'relevance' && 'relevance',
    query.facets?.length && `facets ${query.facets.join(',')}`,
    (query.maxOnsetMs !== undefined || query.minLufs !== undefined) && 'onset/LUFS',
  ];
  return parts.filter(Boolean).join(' + ');
}
