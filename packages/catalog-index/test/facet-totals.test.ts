import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { TOP_TAG_FACETS, type SearchFilters } from '../src/query.ts';
import { SearchIndex } from '../src/search-index.ts';
import { TAG_WAYS, tagWayForTests } from '../src/facets.ts';
import { CATEGORIES, type CatalogRecord } from '../src/sound.ts';
import { filtersArb, recordArb, referenceSearch, toRecord } from './helpers/reference.ts';
import { WEIGHTS } from './helpers/vectors.ts';

/**
 * The tags' totals (facets.ts) kept through adds, changes and removals, and every way a facet is
 * counted from them (the totals alone, the sounds not found taken from them, tag by tag, sound by
 * sound, with tags past the first TOP_TAG_FACETS left uncounted): the facets equal a plain count
 * over the sounds the search matches, ties in tag order.
 */

// More tags than a facet lists, some far more common than others, so that counts tie and the
// walk by totals stops early.
const MANY_TAGS = Array.from({ length: 36 }, (_, i) => (i % 7 === 3 ? `Tag${i}` : `tag${i}`));
const tagArb = fc.integer({ min: 0, max: 999 }).map((i) => MANY_TAGS[Math.floor(MANY_TAGS.length * (i / 1000) ** 2)]!);
const soundArb = fc
  .tuple(recordArb, fc.uniqueArray(tagArb, { maxLength: 5 }))
  .map(([record, tags]) => ({ ...record, tags }));

const changeArb = fc.record({
  kind: fc.constantFrom('add', 'add', 'change', 'change', 'remove'),
  at: fc.nat(),
  sound: soundArb,
});

// Searches matching from nothing to the whole catalog; a third with no filter at all.
const searchArb: fc.Arbitrary<SearchFilters> = fc.oneof(
  filtersArb.map((filters) => ({ ...filters, tags: filters.tags.filter((tag) => tag !== 'missing') })),
  // Without updated_since, what is found is a bitmap more often than a list.
  filtersArb.map(({ updatedSince: _, ...filters }) => ({ ...filters, words: [], tags: [], categories: [] })),
  // Most of the catalog, or all of it: the tags facet is then counted from the sounds not found.
  fc
    .record({
      tag: fc.option(tagArb, { nil: undefined, freq: 2 }),
      loop: fc.option(fc.boolean(), { nil: undefined, freq: 2 }),
      minDuration: fc.option(fc.constantFrom(0, 0.1, 0.3), { nil: undefined, freq: 2 }),
    })
    .map(
      (some): SearchFilters => ({
        words: [],
        categories: [],
        tags: some.tag === undefined ? [] : [some.tag],
        ...(some.loop !== undefined && { loop: some.loop }),
        ...(some.minDuration !== undefined && { minDuration: some.minDuration }),
        sort: 'downloads',
        order: 'desc',
        page: 1,
        limit: 3,
      }),
    ),
);
const facetsArb = fc.constantFrom(['tags'] as const, ['category', 'tags'] as const, ['category'] as const);

function naiveFacets(matched: CatalogRecord[], wanted: readonly string[]) {
  const facets: Record<string, unknown> = {};
  if (wanted.includes('category'))
    facets.category = Object.fromEntries(
      CATEGORIES.map((name) => [name, matched.filter((row) => row.category === name).length]),
    );
  if (wanted.includes('tags')) {
    const counts = new Map<string, number>();
    for (const row of matched) for (const tag of row.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    facets.tags = [...counts]
      .map(([tag, count]) => ({ tag, count }))
      .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))
      .slice(0, TOP_TAG_FACETS);
  }
  return facets;
}

function agrees(index: SearchIndex, rows: Map<number, CatalogRecord>, search: SearchFilters): void {
  const all = [...rows.values()];
  const { ids } = referenceSearch(all, { ...search, page: 1, limit: all.length + 1, facets: [] });
  const matched = new Set(ids);
  const expected = naiveFacets(
    all.filter((row) => matched.has(row.id)),
    search.facets ?? [],
  );
  // The cheapest way, then each way forced (the sounds not found only over more than half).
  for (const way of [null, ...TAG_WAYS]) {
    tagWayForTests.way = way;
    try {
      const page = index.search(search);
      assert.equal(page.total, matched.size, JSON.stringify(search));
      assert.deepEqual(page.facets, expected, `${way}: ${JSON.stringify(search)}`);
    } finally {
      tagWayForTests.way = null;
    }
  }
}

describe('facet totals', () => {
  for (const { name, min, max, runs } of [
    { name: 'sorted-array postings', min: 0, max: 60, runs: 150 },
    { name: 'bitmap postings', min: 300, max: 500, runs: 25 },
  ])
    test(`facet-totals.changes, ${name}: facets equal a plain count as sounds come, change and go`, () => {
      fc.assert(
        fc.property(
          fc.array(soundArb, { minLength: min, maxLength: max, size: 'max' }),
          fc.array(fc.tuple(fc.array(changeArb, { maxLength: 30 }), fc.array(fc.tuple(searchArb, facetsArb))), {
            minLength: 1,
            maxLength: 4,
          }),
          (generated, steps) => {
            const rows = new Map<number, CatalogRecord>();
            generated.forEach((sound, i) => rows.set(i + 1, toRecord(i + 1, sound)));
            const index = new SearchIndex({ descriptorWeights: WEIGHTS });
            index.load([...rows.values()]);
            index.loaded();
            let nextSeq = generated.length + 1;
            for (const [changes, searches] of steps) {
              // One batch of changes, applied together as the catalog service applies them.
              const applied: CatalogRecord[] = [];
              const removed: number[] = [];
              for (const change of changes) {
                const seqs = [...rows.keys()];
                const seq = seqs[change.at % Math.max(1, seqs.length)];
                if (change.kind === 'add' || seq === undefined) {
                  const record = toRecord(nextSeq++, change.sound);
                  rows.set(record.seq, record);
                  applied.push(record);
                } else if (change.kind === 'remove') {
                  if (applied.some((record) => record.seq === seq)) continue;
                  rows.delete(seq);
                  removed.push(seq);
                } else {
                  const before = rows.get(seq)!;
                  const after = {
                    ...toRecord(seq, change.sound),
                    id: before.id,
                    numDownloads: Math.max(before.numDownloads, change.sound.numDownloads),
                  };
                  rows.set(seq, after);
                  const earlier = applied.findIndex((record) => record.seq === seq);
                  if (earlier >= 0) applied[earlier] = after;
                  else applied.push(after);
                }
              }
              index.apply(applied, removed);
              agrees(index, rows, {
                words: [],
                categories: [],
                tags: [],
                sort: 'downloads',
                order: 'desc',
                page: 1,
                limit: 1,
                facets: ['category', 'tags'],
              });
              for (const [search, facets] of searches) agrees(index, rows, { ...search, facets: [...facets] });
            }
          },
        ),
        { numRuns: runs },
      );
    });
});
