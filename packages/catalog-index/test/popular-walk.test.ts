import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { CatalogRecord } from '../src/sound.ts';
import { SearchIndex } from '../src/search-index.ts';
import { decodeRankCursor, encodeRankCursor, popularWalk, type RankPlace } from '../src/popular-walk.ts';
import { recordArb, toRecord } from './helpers/reference.ts';
import { WEIGHTS } from './helpers/vectors.ts';

/** What may happen to the catalog between two pages of a walk. */
const changeArb = fc.record({
  kind: fc.constantFrom('add', 'remove', 'download', 'download'),
  at: fc.nat(),
  times: fc.integer({ min: 1, max: 4 }),
  record: recordArb,
});
const stepArb = fc.record({ limit: fc.integer({ min: 1, max: 7 }), changes: fc.array(changeArb, { maxLength: 6 }) });

/** The ranking in plain code: most downloads first, ties by id from the last; the page below `after`. */
function referencePage(rows: Map<number, CatalogRecord>, after: RankPlace | null, limit: number) {
  const below = (row: CatalogRecord) =>
    after === null || row.numDownloads < after.downloads || (row.numDownloads === after.downloads && row.id < after.id);
  const ranked = [...rows.values()]
    .filter(below)
    .sort((a, b) => b.numDownloads - a.numDownloads || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return { ids: ranked.slice(0, limit).map((row) => row.id), more: ranked.length > limit };
}

describe('walks of the download ranking', () => {
  test(
    'popular-walk.stable: with sounds added, removed and downloaded between pages, ' +
      'each page is the next of the ranking as it is then, no sound comes twice, ' +
      'and every sound present throughout and not downloaded meanwhile comes once',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(recordArb, { maxLength: 60 }),
          fc.array(stepArb, { minLength: 1, maxLength: 40 }),
          async (generated, steps) => {
            const rows = new Map<number, CatalogRecord>();
            generated.forEach((item, i) => rows.set(i + 1, toRecord(i + 1, item)));
            const index = new SearchIndex({ descriptorWeights: WEIGHTS });
            index.load([...rows.values()]);
            index.loaded();
            let nextSeq = generated.length + 1;
            const atStart = new Set([...rows.values()].map((row) => row.id));
            // Removed or downloaded during the walk: not owed to it (a download may lift a sound past the walk's
            // place).
            const touched = new Set<string>();
            const seen: string[] = [];
            let after: RankPlace | null = null;
            for (const step of [
              ...steps,
              ...Array.from({ length: rows.size + 200 }, () => ({ limit: 7, changes: [] })),
            ]) {
              const page = await popularWalk((filters) => index.search(filters), after, step.limit);
              const expected = referencePage(rows, after, step.limit);
              assert.deepEqual(
                page.items.map((sound) => sound.id),
                expected.ids,
              );
              assert.equal(page.total, rows.size);
              assert.equal(page.next !== null, expected.more);
              seen.push(...expected.ids);
              if (page.next === null) break;
              // Through its cursor, as clients carry it.
              after = decodeRankCursor(encodeRankCursor(page.next))!;
              for (const change of step.changes) {
                const seqs = [...rows.keys()];
                const seq = seqs[change.at % Math.max(1, seqs.length)];
                if (change.kind === 'add' || seq === undefined) {
                  const record = toRecord(nextSeq++, change.record);
                  rows.set(record.seq, record);
                  index.apply([record]);
                } else if (change.kind === 'remove') {
                  touched.add(rows.get(seq)!.id);
                  rows.delete(seq);
                  index.apply([], [seq]);
                } else {
                  const before = rows.get(seq)!;
                  touched.add(before.id);
                  rows.set(seq, { ...before, numDownloads: before.numDownloads + change.times });
                  index.countedDownload(seq, before.numDownloads + change.times);
                }
              }
            }
            assert.equal(new Set(seen).size, seen.length, 'no sound is listed twice');
            for (const id of atStart)
              if (!touched.has(id))
                assert.ok(seen.includes(id), `${id} was present and not downloaded throughout, and listed`);
          },
        ),
        { numRuns: 200 },
      );
    },
  );

  test('popular-walk.cursor: a cursor is read back only as given out; the empty one is the top', () => {
    const cursor = encodeRankCursor({ downloads: 12, id: 'abc-1' });
    assert.deepEqual(decodeRankCursor(cursor), { downloads: 12, id: 'abc-1' });
    assert.equal(decodeRankCursor(''), null);
    for (const forged of [
      `${cursor}=`,
      cursor.toUpperCase(),
      Buffer.from('s1.5').toString('base64url'),
      Buffer.from('p1.01.a').toString('base64url'),
      Buffer.from('p1.-1.a').toString('base64url'),
      Buffer.from('p1.5.').toString('base64url'),
      'not a cursor',
    ]) {
      assert.equal(decodeRankCursor(forged), undefined, forged);
    }
  });
});
