import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { CatalogRecord } from '../src/sound.ts';
import { SearchIndex } from '../src/search-index.ts';
import type { SearchFilters } from '../src/query.ts';
import { filtersArb, recordArb, referenceSearch, toRecord } from './helpers/reference.ts';
import { WEIGHTS } from './helpers/vectors.ts';

/** What may happen to the catalog between two pages of a walk. */
const changeArb = fc.record({
  kind: fc.constantFrom('add', 'update', 'rename', 'remove', 'download'),
  at: fc.nat(),
  record: recordArb,
});
const stepArb = fc.record({ limit: fc.integer({ min: 1, max: 7 }), changes: fc.array(changeArb, { maxLength: 6 }) });

/** The matches of `filters` above `after`, in row key order: the page a walk must give, in plain code. */
function referenceWalk(rows: Map<number, CatalogRecord>, filters: SearchFilters, after: number, limit: number) {
  const all = referenceSearch([...rows.values()], { ...filters, sort: 'name', page: 1, limit: rows.size + 1 });
  const matching = new Set(all.ids);
  const ids = [...rows.values()]
    .filter((row) => row.seq > after && matching.has(row.id))
    .sort((a, b) => a.seq - b.seq)
    .map((row) => row.id);
  return { ids: ids.slice(0, limit), more: ids.length > limit, total: all.total };
}

describe('cursor walks of the search index', () => {
  test(
    'cursor-walk.stable: while sounds are added, changed and removed between pages, every sound ' +
      'present and matching throughout is seen exactly once, and each page is the reference one',
    () => {
      fc.assert(
        fc.property(
          fc.array(recordArb, { minLength: 0, maxLength: 60 }),
          filtersArb,
          fc.array(stepArb, { minLength: 1, maxLength: 40 }),
          (generated, someFilters, steps) => {
            // The filters of a walk: no sort, order or page (they do not apply to one).
            const filters: SearchFilters = {
              ...someFilters,
              sort: 'downloads',
              order: 'desc',
              page: 1,
              facets: undefined,
            };
            const rows = new Map<number, CatalogRecord>();
            generated.forEach((item, i) => rows.set(i + 1, toRecord(i + 1, item)));
            const index = new SearchIndex({ descriptorWeights: WEIGHTS });
            index.load([...rows.values()]);
            index.loaded();
            let nextSeq = generated.length + 1;
            const matchingAtStart = new Set(
              referenceSearch([...rows.values()], { ...filters, page: 1, limit: rows.size + 1 }).ids,
            );
            // Sounds whose record was touched (other than a download) may start or stop matching: only
            // the untouched ones are owed to the walk.
            const touched = new Set<string>();
            const seen: string[] = [];
            let after = 0;
            for (const step of [
              ...steps,
              ...Array.from({ length: rows.size + 200 }, () => ({ limit: 7, changes: [] })),
            ]) {
              const page = index.search({ ...filters, after, limit: step.limit });
              const expected = referenceWalk(rows, filters, after, step.limit);
              assert.deepEqual(
                page.items.map((sound) => sound.id),
                expected.ids,
              );
              assert.equal(page.total, expected.total);
              assert.equal(page.nextAfter !== null, expected.more);
              seen.push(...expected.ids);
              if (page.nextAfter === null || page.nextAfter === undefined) break;
              after = page.nextAfter;
              for (const change of step.changes) {
                const seqs = [...rows.keys()];
                const seq = seqs[change.at % Math.max(1, seqs.length)];
                if (change.kind === 'add' || seq === undefined) {
                  const record = toRecord(nextSeq++, change.record);
                  rows.set(record.seq, record);
                  index.apply([record]);
                  continue;
                }
                const before = rows.get(seq)!;
                if (change.kind === 'remove') {
                  rows.delete(seq);
                  touched.add(before.id);
                  index.apply([], [seq]);
                  continue;
                }
                const updated =
                  change.kind === 'download'
                    ? { ...before, numDownloads: before.numDownloads + 1 }
                    : change.kind === 'rename'
                      ? { ...before, name: change.record.name }
                      : {
                          ...toRecord(seq, change.record),
                          id: before.id,
                          numDownloads: Math.max(before.numDownloads, change.record.numDownloads),
                        };
                if (change.kind !== 'download') touched.add(before.id);
                rows.set(seq, updated);
                index.apply([updated]);
              }
            }
            assert.equal(new Set(seen).size, seen.length, 'no sound is seen twice');
            for (const id of matchingAtStart)
              if (!touched.has(id)) assert.ok(seen.includes(id), `${id} was present throughout and seen`);
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  test("cursor-walk.facets: a walk's facets count every match, as a page's do", () => {
    const index = new SearchIndex({ descriptorWeights: WEIGHTS });
    const rows = [1, 2, 3, 4, 5].map((seq) =>
      toRecord(seq, {
        name: 'zap',
        description: null,
        tags: seq % 2 ? ['ui'] : ['game'],
        category: 'SFX',
        duration: 1,
        numDownloads: seq,
        isSample: false,
        created: 0,
        id: 'abcdef',
        onsetMs: 0,
        lufs: -20,
        updatedAfter: 0,
      }),
    );
    index.load(rows);
    index.loaded();
    const filters: SearchFilters = {
      words: [],
      categories: [],
      tags: ['ui'],
      sort: 'downloads',
      order: 'desc',
      page: 1,
      limit: 2,
      facets: ['category'],
    };
    const walked = index.search({ ...filters, after: 0 });
    assert.deepEqual(
      walked.items.map((sound) => sound.id),
      ['abcdef0001', 'abcdef0003'],
    );
    assert.equal(walked.nextAfter, 3);
    assert.deepEqual(walked.facets, index.search(filters).facets);
    assert.equal(walked.facets!.category!.SFX, 3);
  });
});
