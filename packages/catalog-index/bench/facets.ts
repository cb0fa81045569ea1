/**
 * Facets alone, in process:
 *   node --import tsx bench/facets.ts [SOUNDS] [ROUNDS]      (default 100000 sounds, 5 rounds)
 * Builds an index of a made-up catalog (synthetic.ts), then asks searches with the tags facet
 * (and with categories and tags) whose matches are from a few to all of the catalog, each many
 * times per round, the rounds taking turns over the searches. Prints per search the share of the
 * catalog matched, the median wall time and the median CPU time (process.cpuUsage) per search
 * over the rounds: what a facet costs the index, no database, no HTTP.
 */
import { SearchIndex } from '../src/search-index.ts';
import type { Facet, SearchFilters } from '../src/query.ts';
import { WEIGHTS } from '../test/helpers/vectors.ts';
import { catalogPages } from './synthetic.ts';

const sounds = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 5);
if (!(sounds > 0) || !(rounds > 0)) {
  process.stderr.write('usage: node --import tsx bench/facets.ts [SOUNDS] [ROUNDS]\n');
  process.exit(2);
}

const index = new SearchIndex({ descriptorWeights: WEIGHTS });
index.expect(sounds);
for (const page of catalogPages(sounds)) index.load(page);
index.loaded();

const base = (facets: Facet[], more: Partial<SearchFilters>): SearchFilters => ({
  words: [],
  categories: [],
  tags: [],
  sort: 'downloads',
  order: 'desc',
  page: 1,
  limit: 20,
  facets,
  ...more,
});
const searches: Array<{ name: string; more: Partial<SearchFilters> }> = [
  { name: 'everything', more: {} },
  { name: 'duration <= 300', more: { maxDuration: 300 } },
  { name: 'duration >= 0.1', more: { minDuration: 0.1 } },
  { name: 'no loop', more: { loop: false } },
  { name: 'sfx+ambient', more: { categories: ['SFX', 'AMBIENT'] } },
  { name: 'sfx', more: { categories: ['SFX'] } },
  { name: 'duration <= 60', more: { maxDuration: 60 } },
  { name: 'lufs -30..-12', more: { minLufs: -30, maxLufs: -12 } },
  { name: 'music', more: { categories: ['MUSIC'] } },
  { name: 'word "metal"', more: { words: ['metal'] } },
];
const kinds: Array<{ name: string; facets: Facet[] }> = [
  { name: 'tags', facets: ['tags'] },
  { name: 'category,tags', facets: ['category', 'tags'] },
];
const cases = kinds.flatMap((kind) =>
  searches.map((search) => ({ name: `${kind.name} | ${search.name}`, filters: base(kind.facets, search.more) })),
);

// Enough repetitions per round that each takes some tens of milliseconds.
const repeat = Math.max(5, Math.round(2_000_000 / sounds));
const wall = cases.map(() => [] as number[]);
const cpu = cases.map(() => [] as number[]);
for (const { filters } of cases) index.search(filters);
for (let round = 0; round < rounds; round++) {
  cases.forEach(({ filters }, i) => {
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    for (let r = 0; r < repeat; r++) index.search(filters);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpuStart);
    wall[i]!.push((ms * 1000) / repeat);
    cpu[i]!.push((used.user + used.system) / repeat);
  });
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
console.log(JSON.stringify({ sounds: index.count, rounds, repeat }));
cases.forEach(({ name, filters }, i) => {
  const share = `${((100 * index.search(filters).total) / index.count).toFixed(1)}%`;
  console.log(
    JSON.stringify({ search: name, share, wallUs: Math.round(median(wall[i]!)), cpuUs: Math.round(median(cpu[i]!)) }),
  );
});
