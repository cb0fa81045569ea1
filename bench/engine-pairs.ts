/**
 * Two builds of the engine side by side in one process:
 *   node --max-old-space-size=8192 --import tsx bench/engine-pairs.ts SIZE BEFORE [additions]
 * BEFORE is a checkout of an earlier commit (`git worktree add DIR REV`); its
 * packages/catalog-index is loaded beside this one's. Both are filled from the same records, read
 * from the catalog pairs.ts keeps ($TMPDIR/sound-catalog-pairs-SIZE, filled once), then answer the
 * API's search mix (20,000 searches at Zipf frequencies as bench/query-mix.ts draws them, parsed as
 * the route parses them; `additions`: the mix with relevance, facets, onset and loudness filters),
 * in chunks of 250 taking turns, ROUNDS (3) times round. The first 3,000 answers are compared and
 * must be the same. Prints per round each build's time and the ratio now/before.
 *
 * Why: through HTTP a gain in the engine is a share of each request, and two runs minutes apart on a
 * shared machine can differ by more than that share; in one process the host's load falls on both
 * builds alike.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SearchIndex } from '@sound-catalog/catalog-index';
import { searchSounds } from '../src/api/sounds/search.ts';
import { DESCRIPTOR_WEIGHTS } from '../src/audio/analyze/descriptors.ts';
import { DatabaseChangeFeed } from '../src/catalog/database-change-feed.ts';
import { openSqlite } from '../src/db/dialects/sqlite.ts';
import { searchFiltersOf } from '../src/shapes/params.ts';
import { keptCatalog } from './processes.ts';
import { extensionMix, generator, queryMix } from './query-mix.ts';

const size = Number(process.argv[2]);
const before = process.argv[3];
const additions = process.argv[4] === 'additions';
const rounds = Number(process.env.ROUNDS ?? 3);
if (!(size > 0) || before === undefined) {
  process.stderr.write('usage: node --import tsx bench/engine-pairs.ts SIZE BEFORE [additions]\n');
  process.exit(2);
}
type Engine = Pick<SearchIndex, 'expect' | 'load' | 'loaded' | 'search'>;
const earlier = (await import(path.resolve(before, 'packages/catalog-index/src/index.ts'))) as {
  SearchIndex: new (options: { descriptorWeights: typeof DESCRIPTOR_WEIGHTS }) => Engine;
};

const { dataDir } = await keptCatalog(size);
const copy = mkdtempSync(path.join(tmpdir(), 'engine-pairs-'));
copyFileSync(path.join(dataDir, 'catalog.sqlite'), path.join(copy, 'catalog.sqlite'));
const handle = openSqlite(path.join(copy, 'catalog.sqlite'));
const engines: Engine[] = [
  new earlier.SearchIndex({ descriptorWeights: DESCRIPTOR_WEIGHTS }),
  new SearchIndex({ descriptorWeights: DESCRIPTOR_WEIGHTS }),
];
for (const engine of engines) engine.expect(size);
await new DatabaseChangeFeed(handle.db, handle.dialect).loadAll((records) => {
  for (const engine of engines) engine.load(records);
});
for (const engine of engines) engine.loaded();
await handle.close();
rmSync(copy, { recursive: true, force: true });

const random = generator(7);
const mix = additions ? extensionMix(random, 20_000) : queryMix(random, 20_000);
const searches = Array.from({ length: 20_000 }, () => {
  const query = Object.fromEntries(new URL(random.zipf(mix), 'http://bench').searchParams);
  return searchFiltersOf(searchSounds.query.parse(query) as Parameters<typeof searchFiltersOf>[0]);
});
for (const filters of searches.slice(0, 3_000)) {
  const [a, b] = engines.map((engine) => JSON.stringify(engine.search(filters)));
  if (a !== b) throw new Error(`different answers to ${JSON.stringify(filters)}`);
}
for (let round = 0; round < rounds; round++) {
  const spent = [0, 0];
  for (let start = 0; start < searches.length; start += 250) {
    const chunk = searches.slice(start, start + 250);
    for (const which of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const started = performance.now();
      for (const filters of chunk) engines[which]!.search(filters);
      spent[which]! += performance.now() - started;
    }
  }
  const [old, now] = spent as [number, number];
  console.log(
    JSON.stringify({ round, beforeMs: Math.round(old), nowMs: Math.round(now), ratio: +(now / old).toFixed(3) }),
  );
}
