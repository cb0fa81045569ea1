import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { CatalogRecord } from '../src/sound.ts';
import type { SearchFilters } from '../src/query.ts';
import { SearchIndex } from '../src/search-index.ts';
import {
  filtersArb,
  recordArb,
  referenceSamples,
  referenceSearch,
  sampleFiltersArb,
  toRecord,
} from './helpers/reference.ts';
import { WEIGHTS } from './helpers/vectors.ts';

/**
 * The index against a reference that filters and sorts the rows in plain code, on generated
 * catalogs with changes applied after loading: same ids, same order, same totals.
 */

const changeArb = fc.array(
  fc.record({ kind: fc.constantFrom('add', 'update', 'remove', 'download'), at: fc.nat(), record: recordArb }),
  { maxLength: 40, size: 'max' },
);

describe('search index', () => {
  const cases = [
    { name: 'small catalogs (sorted-array postings)', min: 0, max: 60, runs: 300 },
    { name: 'catalogs large enough for bitmap postings', min: 300, max: 500, runs: 40 },
  ];
  for (const { name, min, max, runs } of cases)
    test(
      `search-index.reference, ${name}: every search, sample list and popular ` +
        `list agree with plain filtering and sorting, before and after changes`,
      () => {
        fc.assert(
          fc.property(
            fc.array(recordArb, { minLength: min, maxLength: max, size: 'max' }),
            changeArb,
            fc.array(filtersArb, { minLength: 20, maxLength: 20 }),
            sampleFiltersArb,
            fc.nat({ max: 2 * max }),
            (generated, changes, searches, sampleFilters, reserved) => {
              const rows = new Map<number, CatalogRecord>();
              generated.forEach((item, i) => rows.set(i + 1, toRecord(i + 1, item)));
              const index = new SearchIndex({ descriptorWeights: WEIGHTS });
              // Room reserved as a start does from the catalog's size: too little, enough or too much.
              index.expect(reserved);
              index.load([...rows.values()]);
              index.loaded();
              let nextSeq = generated.length + 1;
              for (const change of changes) {
                const seqs = [...rows.keys()];
                const seq = seqs[change.at % Math.max(1, seqs.length)];
                if (change.kind === 'add' || seq === undefined) {
                  const record = toRecord(nextSeq++, change.record);
                  rows.set(record.seq, record);
                  index.apply([record]);
                } else if (change.kind === 'remove') {
                  rows.delete(seq);
                  index.apply([], [seq]);
                } else {
                  const before = rows.get(seq)!;
                  const after =
                    change.kind === 'download'
                      ? { ...before, numDownloads: before.numDownloads + 1 }
                      : // An update changes anything but lowers no download count (counts only go up).
                        {
                          ...toRecord(seq, change.record),
                          id: before.id,
                          numDownloads: Math.max(before.numDownloads, change.record.numDownloads),
                        };
                  rows.set(seq, after);
                  index.apply([after]);
                }
              }
              const all = [...rows.values()];
              for (const filters of searches) {
                const page = index.search(filters);
                assert.deepEqual(
                  {
                    ids: page.items.map((sound) => sound.id),
                    total: page.total,
                    ...(page.facets && { facets: page.facets }),
                  },
                  referenceSearch(all, filters),
                  JSON.stringify(filters),
                );
              }
              const samples = index.samples(sampleFilters);
              assert.deepEqual(
                { ids: samples.items.map((sound) => sound.id), total: samples.total },
                referenceSamples(all, sampleFilters),
              );
            },
          ),
          { numRuns: runs },
        );
      },
    );

  test('search-index.large-batch: a batch of new sounds past the one-by-one limit is sorted in whole', () => {
    const index = new SearchIndex({ descriptorWeights: WEIGHTS });
    index.load([]);
    index.loaded();
    const records = Array.from({ length: 600 }, (_, i) =>
      toRecord(i + 1, {
        name: `sound ${599 - i}`,
        description: null,
        tags: [],
        category: 'SFX',
        duration: i % 7,
        numDownloads: i % 5,
        isSample: false,
        created: 0,
        id: 'abcdef',
        onsetMs: null,
        lufs: null,
      }),
    );
    index.apply(records);
    const page = index.search({
      words: ['sound'],
      categories: [],
      tags: [],
      sort: 'name',
      order: 'asc',
      page: 1,
      limit: 3,
    });
    assert.deepEqual(
      page.items.map((sound) => sound.name),
      ['sound 0', 'sound 1', 'sound 10'],
    );
    assert.equal(page.total, 600);
  });

  test('search-index.word-union: a word held by many tokens, dense and sparse, of bitmaps of unequal length', () => {
    // "door" lies in six tokens, five of them dense (bitmaps) and one sparse. Sounds added after
    // the load hold "door" alone: its bitmap grows past the others', whose union then has a tail.
    const dense = ['door', 'indoor', 'outdoor', 'doors', 'doorbell', 'window'];
    const made = (i: number) =>
      toRecord(i + 1, {
        name: i >= 2000 ? `door ${i}` : i % 100 === 5 ? `doorway ${i}` : `${dense[i % 6]} ${i}`,
        description: null,
        tags: [],
        category: 'SFX',
        duration: i % 13,
        numDownloads: (i * 7919) % 101,
        isSample: false,
        created: i % 50,
        id: 'abcdef',
        onsetMs: null,
        lufs: null,
      });
    const records = Array.from({ length: 2000 }, (_, i) => made(i));
    const index = new SearchIndex({ descriptorWeights: WEIGHTS });
    index.load(records);
    index.loaded();
    const added = Array.from({ length: 3000 }, (_, i) => made(2000 + i));
    index.apply(added);
    const all = [...records, ...added];
    for (const words of [['door'], ['oor'], ['doorw'], ['door', 'oor']])
      for (const sort of ['downloads', 'name'] as const)
        for (const page of [1, 40]) {
          const filters = { words, categories: [], tags: [], sort, order: 'desc' as const, page, limit: 7 };
          searchesAsReference(index, all, filters);
        }
  });

  test('search-index.sparse-word: a rare word of a large catalog pages and counts as plain sorting does', () => {
    // 150,000 sounds, 4,055 of them "thud": a sparse posting, its own list of matches. A page of
    // one to three of them is walked in every order, each sound walked looked up in that list;
    // sorted by name they bunch, and the walk gives up and sorts.
    const records = Array.from({ length: 150_000 }, (_, i) =>
      toRecord(i + 1, {
        name: i % 37 === 0 ? `thud ${i}` : `sound ${i}`,
        description: null,
        tags: [],
        category: 'SFX',
        duration: ((i * 7919) % 1000) / 10,
        // The last of them (the largest position, at the end of its list) is the most downloaded.
        numDownloads: i === 149_998 ? 10_000 : (i * 104_729) % 5000,
        isSample: false,
        created: i % 1000,
        id: 'abcdef',
        onsetMs: null,
        lufs: null,
      }),
    );
    const index = new SearchIndex({ descriptorWeights: WEIGHTS });
    index.load(records);
    index.loaded();
    for (const sort of ['downloads', 'created_at', 'duration', 'name'] as const)
      for (const order of ['asc', 'desc'] as const)
        for (const [page, limit] of [
          [1, 1],
          [2, 1],
          [1, 3],
          [3, 2],
        ] as const) {
          const filters = { words: ['thud'], categories: [], tags: [], sort, order, page, limit };
          searchesAsReference(index, records, filters);
        }
  });

  test('search-index.bunched: a page whose matches bunch at the far end of the sort order is still exact', () => {
    // 2,000 sounds; the 100 tagged ones are the shortest but one, the longest: sorted by duration
    // from the longest, a walk of the order finds that one, then gives up and sorts the rest.
    const records = Array.from({ length: 2000 }, (_, i) =>
      toRecord(i + 1, {
        name: `bunch ${i}`,
        description: null,
        tags: i < 99 || i === 1999 ? ['bunched'] : [],
        category: 'SFX',
        duration: i,
        numDownloads: 0,
        isSample: false,
        created: 0,
        id: 'abcdef',
        onsetMs: null,
        lufs: null,
      }),
    );
    const index = new SearchIndex({ descriptorWeights: WEIGHTS });
    index.load(records);
    index.loaded();
    const page = index.search({
      words: [],
      categories: [],
      tags: ['bunched'],
      sort: 'duration',
      order: 'desc',
      page: 1,
      limit: 3,
    });
    assert.deepEqual(
      page.items.map((sound) => sound.duration),
      [1999, 98, 97],
    );
    assert.equal(page.total, 100);
  });

  test('search-index.sound: a listed sound carries every field, nulls where the row has none', () => {
    const index = new SearchIndex({ descriptorWeights: WEIGHTS });
    const record = toRecord(1, {
      name: 'Laser Zap',
      description: null,
      tags: ['ui'],
      category: null,
      duration: 0.5,
      numDownloads: 3,
      isSample: true,
      created: 1,
      id: '123456',
      onsetMs: null,
      lufs: -20,
    });
    index.load([record]);
    index.loaded();
    const [sound] = index.search({
      words: ['zap'],
      categories: [],
      tags: ['ui'],
      sort: 'downloads',
      order: 'desc',
      page: 1,
      limit: 5,
    }).items;
    assert.deepEqual(sound, {
      id: record.id,
      name: 'Laser Zap',
      description: null,
      tags: ['ui'],
      category: null,
      license: 'CC0',
      duration: 0.5,
      timing: { onset_ms: null, peak_ms: 1, tail_ms: 2 },
      loudness: { integrated_lufs: -20, true_peak_db: null },
      numDownloads: 3,
      isSample: true,
      loop: null,
    });
  });

  test('search-index.loop: loop=true finds the loops, loop=false the rest, as loops come and go', () => {
    const index = new SearchIndex({ descriptorWeights: WEIGHTS });
    const base = {
      description: null,
      tags: [],
      category: 'MUSIC' as const,
      duration: 1,
      numDownloads: 0,
      isSample: false,
      created: 0,
      id: 'abcdef',
      onsetMs: null,
      lufs: null,
    };
    index.load([
      toRecord(1, { ...base, name: 'one', loop: [0, 44100] }),
      toRecord(2, { ...base, name: 'two' }),
      toRecord(3, { ...base, name: 'three', loop: [10, 20] }),
    ]);
    index.loaded();
    const names = (loop: boolean | undefined) =>
      index
        .search({ words: [], categories: [], tags: [], loop, sort: 'name', order: 'asc', page: 1, limit: 10 })
        .items.map((sound) => `${sound.name}${sound.loop ? ` ${sound.loop.startSample}-${sound.loop.endSample}` : ''}`);
    assert.deepEqual(names(true), ['one 0-44100', 'three 10-30']);
    assert.deepEqual(names(false), ['two']);
    assert.deepEqual(names(undefined), ['one 0-44100', 'three 10-30', 'two']);
    // Two becomes a loop, one stops being one, three is removed.
    index.apply([toRecord(2, { ...base, name: 'two', loop: [5, 6] }), toRecord(1, { ...base, name: 'one' })], [3]);
    assert.deepEqual(names(true), ['two 5-11']);
    assert.deepEqual(names(false), ['one']);
  });
});

/** Asserts that a search of the index finds the sounds and the total that plain filtering of `rows` finds. */
function searchesAsReference(index: SearchIndex, rows: CatalogRecord[], filters: SearchFilters): void {
  const found = index.search(filters);
  assert.deepEqual(
    { ids: found.items.map((sound) => sound.id), total: found.total },
    referenceSearch(rows, filters),
    JSON.stringify(filters),
  );
}
