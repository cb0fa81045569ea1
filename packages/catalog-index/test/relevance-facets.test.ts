import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { CatalogRecord } from '../src/sound.ts';
import { SearchIndex } from '../src/search-index.ts';
import type { SearchFilters } from '../src/query.ts';
import { filtersArb, recordArb, referenceSearch, toRecord, wordArb } from './helpers/reference.ts';
import { WEIGHTS } from './helpers/vectors.ts';

/**
 * Relevance sorts and facets against the plain reference where search-index.test.ts does not
 * reach: three words (the most scored by sets), more (scored sound by sound from their text),
 * few matches in a large catalog (scored sound by sound from their postings or text), tags stored
 * with capitals, and facets counted over the matches one by one (many rare tags).
 */

function indexOf(records: CatalogRecord[]): SearchIndex {
  const index = new SearchIndex({ descriptorWeights: WEIGHTS });
  index.load(records);
  index.loaded();
  return index;
}

function agrees(index: SearchIndex, rows: CatalogRecord[], filters: SearchFilters): void {
  const page = index.search(filters);
  assert.deepEqual(
    { ids: page.items.map((sound) => sound.id), total: page.total, ...(page.facets && { facets: page.facets }) },
    referenceSearch(rows, filters),
    JSON.stringify(filters),
  );
}

/** The sound at position `i` with these words and category; its numbers vary with `i`. */
function soundAt(
  i: number,
  text: { name: string; description: string | null; tags: string[]; category: 'MUSIC' | 'SFX' },
): CatalogRecord {
  const numbers = { duration: (i % 20) / 10, numDownloads: i % 7, onsetMs: 5, lufs: -20 };
  return toRecord(i + 1, { ...text, ...numbers, isSample: false, created: 0, id: 'abcdef' });
}

const relevanceArb = (minWords: number, maxWords: number) =>
  fc
    .tuple(
      filtersArb,
      fc.array(fc.oneof(wordArb, fc.constantFrom('s', 'er', 'i-f', 'é', 'p,', '(l', 'r)', 's.', '!', '..')), {
        minLength: minWords,
        maxLength: maxWords,
      }),
    )
    .map(([filters, words]) => ({
      ...filters,
      words: words.map((word) => word.toLowerCase()),
      sort: 'relevance' as const,
    }));

describe('relevance and facets', () => {
  for (const { name, min, max, runs } of [
    { name: 'sorted-array postings', min: 0, max: 60, runs: 200 },
    { name: 'bitmap postings', min: 300, max: 500, runs: 30 },
  ]) {
    test(`relevance-facets.words, ${name}: three words, and four to six, sort as the reference does`, () => {
      fc.assert(
        fc.property(
          fc.array(recordArb, { minLength: min, maxLength: max, size: 'max' }),
          fc.array(relevanceArb(3, 6), { minLength: 10, maxLength: 10 }),
          (generated, searches) => {
            const rows = generated.map((item, i) => toRecord(i + 1, item));
            const index = indexOf(rows);
            for (const filters of searches) agrees(index, rows, filters);
          },
        ),
        { numRuns: runs },
      );
    });
  }

  test(
    'relevance-facets.capitals: tags stored with capitals ' + 'score and count as search reads them, in lower case',
    () => {
      fc.assert(
        fc.property(
          fc.array(recordArb, { minLength: 1, maxLength: 80 }),
          fc.array(relevanceArb(1, 5), { minLength: 10, maxLength: 10 }),
          (generated, searches) => {
            const rows = generated.map((item, i) =>
              toRecord(i + 1, { ...item, tags: item.tags.map((tag, n) => (n % 2 === 0 ? tag.toUpperCase() : tag)) }),
            );
            const index = indexOf(rows);
            for (const filters of searches) agrees(index, rows, filters);
            // A change of a tag's case alone moves the sound between the postings of its tags' tokens.
            const changed = rows.map((row) => ({ ...row, tags: row.tags.map((tag) => tag.toLowerCase()) }));
            index.apply(changed);
            for (const filters of searches) agrees(index, changed, filters);
          },
        ),
        { numRuns: 100 },
      );
    },
  );

  test('relevance-facets.ways: few matches of a large catalog, scored sound by sound, sort as the reference does', () => {
    // 60,000 sounds. A rare word (one of 3,000, 20 sounds each) is scored sound by sound from its
    // postings, also beside a word of a seventh of the catalog ("mid3"); beside a short word that
    // many tokens hold ("e"), from the sounds' text; common words, by sets. Each word is found in
    // the name, a tag or the description, whole, at a word's beginning or inside one.
    const common = ['door', 'hit', 'kick'];
    const rows = Array.from({ length: 60_000 }, (_, i) => {
      const rare = `qx${(i % 3000).toString(36).padStart(3, '0')}`;
      const mid = `mid${i % 7}`;
      const where = Math.floor(i / 3000) % 6;
      return toRecord(i + 1, {
        name: [
          `${rare} ${common[i % 3]}`,
          `${rare}s ${mid}`,
          `sub${rare}`,
          `item ${mid}`,
          `${common[i % 3]}way`,
          'tone',
        ][where]!,
        description: where >= 3 ? `the ${rare}ed sound of a ${common[(i + 1) % 3]}` : null,
        tags: where === 3 ? [rare, common[(i + 2) % 3]!] : where === 5 ? [`${rare}-tag`, mid] : [],
        category: i % 4 === 0 ? 'MUSIC' : 'SFX',
        duration: (i % 50) / 10,
        numDownloads: (i * 7919) % 97,
        isSample: false,
        created: i % 13,
        id: 'abcdef',
        onsetMs: 5,
        lufs: -20,
      });
    });
    const index = indexOf(rows);
    const base = { categories: [], tags: [], sort: 'relevance' as const };
    for (const words of [
      ['qx01a'],
      ['qx02b', 'mid3'],
      ['mid2', 'qx07'],
      ['qx01a', 'e'],
      ['e', 'qx03c', 'kick'],
      ['kick'],
      ['door', 'hit'],
    ])
      for (const order of ['desc', 'asc'] as const)
        for (const [page, limit] of [
          [1, 5],
          [2, 7],
          [1, 100],
        ] as const)
          agrees(index, rows, { ...base, words, order, page, limit });
    agrees(index, rows, {
      ...base,
      words: ['qx05'],
      order: 'desc',
      page: 1,
      limit: 20,
      maxDuration: 2,
      categories: ['SFX'],
    });
  });

  test('relevance-facets.rare-tags: tag counts over few matches among many rare tags, and over many', () => {
    const rows = Array.from({ length: 400 }, (_, i) =>
      soundAt(i, {
        name: i % 100 === 0 ? 'laser zap' : `sound ${i}`,
        description: i % 3 === 0 ? 'a laser' : null,
        tags: [`tag${i}`, ...(i % 2 === 0 ? ['game'] : [])],
        category: i % 5 === 0 ? 'MUSIC' : 'SFX',
      }),
    );
    const index = indexOf(rows);
    const base = {
      categories: [],
      tags: [],
      order: 'desc' as const,
      page: 1,
      limit: 5,
      facets: ['category' as const, 'tags' as const],
    };
    for (const filters of [
      { ...base, words: ['zap'], sort: 'relevance' as const },
      { ...base, words: ['laser'], sort: 'relevance' as const },
      { ...base, words: [], sort: 'downloads' as const },
      { ...base, words: ['sound'], sort: 'name' as const, maxOnsetMs: 10 },
      { ...base, words: ['laser'], sort: 'relevance' as const, maxDuration: 0.5, page: 2 },
    ])
      agrees(index, rows, filters);
  });

  test('relevance-facets.grown: the bitmap of a word, shorter than the catalog, scored in a bitmap a query left full', () => {
    const record = (i: number, name: string) =>
      soundAt(i, {
        name,
        description: i % 3 === 0 && name.startsWith('kick') ? 'a kick drum' : null,
        tags: i % 2 === 0 ? ['drum'] : [],
        category: 'SFX',
      });
    const first = Array.from({ length: 1000 }, (_, i) => record(i, `kick ${i}`));
    const index = indexOf(first);
    // Sounds without the word, past the capacity the word's bitmap was made for.
    const rows = [...first, ...Array.from({ length: 1500 }, (_, i) => record(1000 + i, `snare ${i}`))];
    index.apply(rows.slice(1000));
    const base = { categories: [], tags: [], order: 'desc' as const, page: 1, limit: 20 };
    for (const order of ['desc', 'asc'] as const) {
      // Every sound in a range: the pool's bitmaps are left with every bit set.
      agrees(index, rows, { ...base, words: [], sort: 'downloads', minDuration: 0 });
      agrees(index, rows, { ...base, words: ['kick'], sort: 'relevance', order });
    }
  });
});
