import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { StringListColumn, TextColumn } from '../src/text-column.ts';

// Strings of every kind a name or description can hold: empty, non-Latin, astral (a surrogate pair).
const textArb = fc.option(
  fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', 'Über', 'café', '音', '🎵 drum', 'x'.repeat(3000))),
  { nil: null },
);
const tagsArb = fc.array(fc.constantFrom('ui', 'game', 'sci-fi', 'über', '🎵'), { maxLength: 5 });

describe('text columns outside the heap', () => {
  test('text.model: after any sequence of sets, each position reads back the last string set (or null)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(30), textArb), { maxLength: 200 }), (sets) => {
        const column = new TextColumn();
        column.reserve(31);
        const expected = new Map<number, string | null>();
        for (const [doc, value] of sets) {
          column.set(doc, value);
          expected.set(doc, value);
        }
        column.trim();
        for (let doc = 0; doc <= 30; doc++) assert.equal(column.get(doc), expected.get(doc) ?? null);
      }),
      { numRuns: 300 },
    );
  });

  test('text.compact: megabytes of changed strings are written out again, and every string survives it', () => {
    const column = new TextColumn();
    column.reserve(1000);
    // Each round changes every string: 1,000 x 400 bytes, 20 rounds, 8 MB written in all.
    for (let round = 0; round < 20; round++) {
      for (let doc = 0; doc < 1000; doc++) column.set(doc, `${round}:${doc}:${'é'.repeat(199)}`);
      // Strings set again unchanged write nothing.
      for (let doc = 0; doc < 1000; doc += 3) column.set(doc, `${round}:${doc}:${'é'.repeat(199)}`);
    }
    for (let doc = 0; doc < 1000; doc++) assert.equal(column.get(doc), `19:${doc}:${'é'.repeat(199)}`);
    column.set(7, null);
    assert.equal(column.get(7), null);
    // The buffer holds about the live strings, not the 8 MB written.
    const held = (column as unknown as { bytes: Buffer }).bytes.length;
    assert.ok(held < 2_000_000, `${held} bytes held for 400 kB of strings`);
  });

  test(
    'tags.model: lists of shared strings read back as set, ' +
      'and counted per string, one position or a bitmap of them',
    () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.nat(20), tagsArb), { maxLength: 300 }), (sets) => {
          const column = new StringListColumn();
          column.reserve(21);
          const expected = new Map<number, string[]>();
          for (const [doc, tags] of sets) {
            column.set(doc, tags);
            expected.set(doc, tags);
          }
          const countOf = (counts: Uint32Array) =>
            Object.fromEntries(
              [...counts].flatMap((count, n) => (count > 0 ? [[column.shared.texts[n]!, count]] : [])),
            );
          const bits = new Uint32Array(1);
          const everyDoc = new Uint32Array(column.shared.texts.length);
          for (let doc = 0; doc <= 20; doc++) {
            assert.deepEqual(column.get(doc), expected.get(doc) ?? []);
            const one = new Uint32Array(column.shared.texts.length);
            column.countInto(doc, one);
            assert.deepEqual(countOf(one), countOf(tallied([expected.get(doc) ?? []], column.shared.texts)));
            if (doc % 3 === 0) bits[0]! |= 1 << doc;
          }
          // Counted over a bitmap of positions: every third one.
          column.countOver(bits, everyDoc);
          const third = [...expected].filter(([doc]) => doc % 3 === 0).map(([, tags]) => tags);
          assert.deepEqual(countOf(everyDoc), countOf(tallied(third, column.shared.texts)));
        }),
        { numRuns: 300 },
      );
    },
  );

  test('tags.compact: many changed lists are written out again without losing one', () => {
    const column = new StringListColumn();
    column.reserve(500);
    for (let round = 0; round < 2000; round++) {
      for (let doc = 0; doc < 500; doc++) column.set(doc, [`t${round % 7}`, `d${doc % 13}`]);
    }
    for (let doc = 0; doc < 500; doc++) assert.deepEqual(column.get(doc), [`t${1999 % 7}`, `d${doc % 13}`]);
  });
});

/** How many times each of `texts` occurs in the lists, by its place in `texts`. */
function tallied(lists: string[][], texts: string[]): Uint32Array {
  const counts = new Uint32Array(texts.length);
  for (const list of lists) for (const text of list) counts[texts.indexOf(text)]!++;
  return counts;
}
