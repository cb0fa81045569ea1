import fc from 'fast-check';
import { FACETS, SEARCH_SORTS, type Facets, type SampleFilters, type SearchFilters } from '../../src/query.ts';
import { CATEGORIES, type CatalogRecord } from '../../src/sound.ts';

/**
 * Generated catalogs and searches, and a reference that answers them by filtering and sorting
 * the rows in plain code: what the search index is compared against, in memory
 * (search-index.test.ts) and loaded from each database engine (the service's
 * test/catalog/search-database.test.ts).
 */

// Few, overlapping words, so that substrings, short words and ties are common.
export const WORDS = [
  'laser',
  'las',
  'ase',
  'zap',
  'a',
  'ab',
  'base',
  'bass',
  'drum',
  'rum',
  'Über',
  'über',
  'x',
  'cafe',
  'café',
  'sci-fi',
  // Punctuation at a token's ends: its core is indexed apart from it as written.
  'zap,',
  '(laser)',
  'las.',
  '¡über!',
  '...',
  ',',
];
export const TAGS = ['ui', 'game', 'retro', 'sci-fi', 'loop', 'bass'];

export const wordArb = fc.constantFrom(...WORDS);
export const recordArb = fc.record({
  name: fc.array(wordArb, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
  description: fc.option(
    fc.array(wordArb, { maxLength: 4 }).map((words) => words.join(' ')),
    { nil: null },
  ),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
  category: fc.option(fc.constantFrom(...CATEGORIES), { nil: null }),
  duration: fc.integer({ min: 0, max: 20 }).map((tenths) => tenths / 10),
  numDownloads: fc.integer({ min: 0, max: 5 }),
  isSample: fc.boolean(),
  created: fc.integer({ min: 0, max: 5 }),
  id: fc.stringMatching(/^[0-9a-f]{6}$/),
  onsetMs: fc.option(
    fc.integer({ min: 0, max: 4 }).map((step) => step * 5),
    { nil: null },
  ),
  lufs: fc.option(fc.integer({ min: -30, max: -10 }), { nil: null }),
  /** A loop's first frame and its length in frames. */
  loop: fc.option(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 100 })), { nil: null }),
  /** Seconds between creation and the last change of the record. */
  updatedAfter: fc.integer({ min: 0, max: 2 }),
});
export type Generated = typeof recordArb extends fc.Arbitrary<infer T> ? T : never;

export function toRecord(
  seq: number,
  generated: Omit<Generated, 'updatedAfter' | 'loop'> & { updatedAfter?: number; loop?: Generated['loop'] },
): CatalogRecord {
  return {
    seq,
    id: `${generated.id}${seq.toString(16).padStart(4, '0')}`,
    name: generated.name,
    description: generated.description,
    tags: generated.tags,
    category: generated.category,
    license: 'CC0',
    duration: generated.duration,
    timing: { onset_ms: generated.onsetMs, peak_ms: 1, tail_ms: 2 },
    loudness: { integrated_lufs: generated.lufs, true_peak_db: null },
    numDownloads: generated.numDownloads,
    isSample: generated.isSample,
    loop: generated.loop ? { startSample: generated.loop[0], endSample: generated.loop[0] + generated.loop[1] } : null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, generated.created)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, generated.created + (generated.updatedAfter ?? 0))).toISOString(),
  };
}

export const filtersArb: fc.Arbitrary<SearchFilters> = fc.record(
  {
    words: fc
      .array(
        fc.oneof(
          wordArb,
          fc.constantFrom('s', 'er', 'ase', 'aser', 'i-f', 'é', 'fé', 'p,', '(l', 'r)', 's.', 'er!', '..'),
        ),
        { maxLength: 2 },
      )
      .map((words) => words.map((word) => word.toLowerCase())),
    categories: fc.uniqueArray(fc.constantFrom(...CATEGORIES), { maxLength: 2 }),
    tags: fc.uniqueArray(fc.constantFrom(...TAGS, 'missing'), { maxLength: 2 }),
    minDuration: fc.option(
      fc.integer({ min: 0, max: 20 }).map((tenths) => tenths / 10),
      { nil: undefined },
    ),
    maxDuration: fc.option(
      fc.integer({ min: 0, max: 20 }).map((tenths) => tenths / 10),
      { nil: undefined },
    ),
    maxOnsetMs: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    minLufs: fc.option(fc.integer({ min: -30, max: -10 }), { nil: undefined }),
    maxLufs: fc.option(fc.integer({ min: -30, max: -10 }), { nil: undefined }),
    loop: fc.option(fc.boolean(), { nil: undefined }),
    updatedSince: fc.option(
      fc.integer({ min: 0, max: 6 }).map((second) => Date.UTC(2026, 0, 1, 0, 0, second)),
      { nil: undefined },
    ),
    sort: fc.constantFrom(...SEARCH_SORTS),
    order: fc.constantFrom('asc' as const, 'desc' as const),
    page: fc.integer({ min: 1, max: 4 }),
    limit: fc.integer({ min: 1, max: 7 }),
    facets: fc.option(fc.uniqueArray(fc.constantFrom(...FACETS), { maxLength: 2 }), { nil: undefined }),
  },
  { requiredKeys: ['words', 'categories', 'tags', 'sort', 'order', 'page', 'limit'] },
);

export const sampleFiltersArb: fc.Arbitrary<SampleFilters> = fc.record({
  words: fc.array(fc.constantFrom('las', 'a', 'drum', 'über', 'zz', 'zap,', '.'), { maxLength: 2 }),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }),
  limit: fc.integer({ min: 1, max: 12 }),
});

export function referenceSearch(rows: CatalogRecord[], f: SearchFilters) {
  const text = (row: CatalogRecord) => [row.name, row.description ?? '', ...row.tags].join(' ').toLowerCase();
  const within = (value: number | null, min: number | undefined, max: number | undefined) =>
    (min === undefined && max === undefined) ||
    (value !== null && value >= (min ?? -Infinity) && value <= (max ?? Infinity));
  const matching = rows.filter(
    (row) =>
      f.words.every((word) => text(row).includes(word)) &&
      (f.categories.length === 0 || (row.category !== null && f.categories.includes(row.category))) &&
      f.tags.every((tag) => row.tags.includes(tag)) &&
      (f.minDuration === undefined || row.duration >= f.minDuration) &&
      (f.maxDuration === undefined || row.duration <= f.maxDuration) &&
      within(row.timing.onset_ms, undefined, f.maxOnsetMs) &&
      within(row.loudness.integrated_lufs, f.minLufs, f.maxLufs) &&
      (f.loop === undefined || (row.loop !== null) === f.loop) &&
      (f.updatedSince === undefined || Date.parse(row.updatedAt ?? row.createdAt) >= f.updatedSince),
  );
  const sort = f.sort === 'relevance' && f.words.length === 0 ? 'downloads' : f.sort;
  const value = (row: CatalogRecord): Array<number | string> =>
    ({
      downloads: () => [row.numDownloads],
      created_at: () => [row.createdAt],
      duration: () => [row.duration],
      name: () => [row.name],
      relevance: () => [referenceRelevance(row, f.words), row.numDownloads],
    })[sort]();
  const compare = (a: CatalogRecord, b: CatalogRecord) => {
    const [x, y] = [
      [...value(a), a.id],
      [...value(b), b.id],
    ];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  };
  matching.sort(compare);
  if (f.order === 'desc') matching.reverse();
  const ids = matching.slice((f.page - 1) * f.limit, f.page * f.limit).map((row) => row.id);
  return {
    ids,
    total: matching.length,
    ...(f.facets !== undefined && f.facets.length > 0 && { facets: referenceFacets(matching, f.facets) }),
  };
}

/** Per word: field (name 2, tag 1, description 0) times 3, plus place (whole 2, beginning 1, inside 0), plus 1. */
function referenceRelevance(row: CatalogRecord, words: string[]): number {
  const escapeWord = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const place = (field: string, word: string) => {
    const text = field.toLowerCase();
    if (new RegExp(`(^|[^\\p{L}\\p{N}])${escapeWord(word)}($|[^\\p{L}\\p{N}])`, 'u').test(text)) return 2;
    if (new RegExp(`(^|[^\\p{L}\\p{N}])${escapeWord(word)}`, 'u').test(text)) return 1;
    return text.includes(word) ? 0 : -1;
  };
  let total = 0;
  for (const word of words) {
    const fields = [[row.name], row.tags, [row.description ?? '']];
    for (const [i, texts] of fields.entries()) {
      const best = Math.max(-1, ...texts.map((field) => place(field, word)));
      if (best >= 0) {
        total += 1 + (2 - i) * 3 + best;
        break;
      }
    }
  }
  return total;
}

function referenceFacets(rows: CatalogRecord[], wanted: string[]): Facets {
  const facets: Facets = {};
  if (wanted.includes('category')) {
    facets.category = Object.fromEntries(
      CATEGORIES.map((name) => [name, rows.filter((row) => row.category === name).length]),
    ) as Facets['category'];
  }
  if (wanted.includes('tags')) {
    const counts = new Map<string, number>();
    for (const row of rows) for (const tag of row.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    facets.tags = [...counts]
      .map(([tag, count]) => ({ tag, count }))
      .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1))
      .slice(0, 20);
  }
  return facets;
}

export function referenceSamples(rows: CatalogRecord[], f: SampleFilters) {
  const matching = rows
    .filter(
      (row) =>
        row.isSample &&
        (f.tags.length === 0 || row.tags.some((tag) => f.tags.includes(tag))) &&
        f.words.every((word) => `${row.name} ${row.description ?? ''}`.toLowerCase().includes(word)),
    )
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  return { ids: matching.slice(0, f.limit).map((row) => row.id), total: matching.length };
}
