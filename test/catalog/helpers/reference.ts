import fc from 'fast-check';
import type { CatalogRecord } from '../../../src/catalog/change-feed.ts';
import { CATEGORIES, SORT_FIELDS, type SampleFilters, type SearchFilters } from '../../../src/catalog/sound.ts';

/**
 * Generated catalogs and searches, and a reference that answers them by filtering and sorting
 * the rows in plain code: what the search index is compared against, in memory
 * (search-index.test.ts) and loaded from each database engine (search-database.test.ts).
 */

// Few, overlapping words, so that substrings, short words and ties are common.
export const WORDS = ['laser', 'las', 'ase', 'zap', 'a', 'ab', 'base', 'bass', 'drum', 'rum', 'Über', 'über', 'x', 'cafe', 'café', 'sci-fi'];
export const TAGS = ['ui', 'game', 'retro', 'sci-fi', 'loop', 'bass'];

export const wordArb = fc.constantFrom(...WORDS);
export const recordArb = fc.record({
  name: fc.array(wordArb, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
  description: fc.option(fc.array(wordArb, { maxLength: 4 }).map((words) => words.join(' ')), { nil: null }),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
  category: fc.option(fc.constantFrom(...CATEGORIES), { nil: null }),
  duration: fc.integer({ min: 0, max: 20 }).map((tenths) => tenths / 10),
  numDownloads: fc.integer({ min: 0, max: 5 }),
  isSample: fc.boolean(),
  created: fc.integer({ min: 0, max: 5 }),
  id: fc.stringMatching(/^[0-9a-f]{6}$/),
});
export type Generated = typeof recordArb extends fc.Arbitrary<infer T> ? T : never;

export function toRecord(seq: number, generated: Generated): CatalogRecord {
  return {
    seq,
    id: `${generated.id}${seq.toString(16).padStart(4, '0')}`,
    name: generated.name,
    description: generated.description,
    tags: generated.tags,
    category: generated.category,
    license: 'CC0',
    duration: generated.duration,
    timing: { onset_ms: null, peak_ms: 1, tail_ms: 2 },
    loudness: { integrated_lufs: -20, true_peak_db: null },
    numDownloads: generated.numDownloads,
    isSample: generated.isSample,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, generated.created)).toISOString(),
  };
}

export const filtersArb: fc.Arbitrary<SearchFilters> = fc.record({
  words: fc.array(fc.oneof(wordArb, fc.constantFrom('s', 'er', 'ase', 'aser', 'i-f', 'é', 'fé')), { maxLength: 2 }).map((words) => words.map((word) => word.toLowerCase())),
  categories: fc.uniqueArray(fc.constantFrom(...CATEGORIES), { maxLength: 2 }),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS, 'missing'), { maxLength: 2 }),
  minDuration: fc.option(fc.integer({ min: 0, max: 20 }).map((tenths) => tenths / 10), { nil: undefined }),
  maxDuration: fc.option(fc.integer({ min: 0, max: 20 }).map((tenths) => tenths / 10), { nil: undefined }),
  sort: fc.constantFrom(...SORT_FIELDS),
  order: fc.constantFrom('asc' as const, 'desc' as const),
  page: fc.integer({ min: 1, max: 4 }),
  limit: fc.integer({ min: 1, max: 7 }),
});

export const sampleFiltersArb: fc.Arbitrary<SampleFilters> = fc.record({
  words: fc.array(fc.constantFrom('las', 'a', 'drum', 'über', 'zz'), { maxLength: 2 }),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }),
  limit: fc.integer({ min: 1, max: 12 }),
});

export function referenceSearch(rows: CatalogRecord[], f: SearchFilters) {
  const text = (row: CatalogRecord) => [row.name, row.description ?? '', ...row.tags].join(' ').toLowerCase();
  const matching = rows.filter((row) => f.words.every((word) => text(row).includes(word))
    && (f.categories.length === 0 || (row.category !== null && f.categories.includes(row.category)))
    && f.tags.every((tag) => row.tags.includes(tag))
    && (f.minDuration === undefined || row.duration >= f.minDuration)
    && (f.maxDuration === undefined || row.duration <= f.maxDuration));
  const value = (row: CatalogRecord): number | string => ({
    downloads: row.numDownloads, created_at: row.createdAt, duration: row.duration, name: row.name,
  })[f.sort];
  matching.sort((a, b) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : a.id < b.id ? -1 : 1));
  if (f.order === 'desc') matching.reverse();
  return { ids: matching.slice((f.page - 1) * f.limit, f.page * f.limit).map((row) => row.id), total: matching.length };
}

export function referenceSamples(rows: CatalogRecord[], f: SampleFilters) {
  const matching = rows.filter((row) => row.isSample
    && (f.tags.length === 0 || row.tags.some((tag) => f.tags.includes(tag)))
    && f.words.every((word) => `${row.name} ${row.description ?? ''}`.toLowerCase().includes(word)))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  return { ids: matching.slice(0, f.limit).map((row) => row.id), total: matching.length };
}
