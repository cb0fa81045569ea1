import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { byText, sortByNumber, sortByText } from '../src/sort-order.ts';

test('sort-order.radix: sortByNumber orders as a stable sort by value difference, ties in the given order', () => {
  const numberArb = fc.oneof(
    fc.double({ noNaN: true }),
    fc.constantFrom(0, -0, 1, -1, 2 ** 53, -(2 ** 53), Number.MIN_VALUE, -Number.MIN_VALUE, Infinity, -Infinity),
    fc.integer({ min: 0, max: 5 }),
  );
  fc.assert(
    fc.property(fc.array(numberArb, { maxLength: 300 }), fc.integer({ min: 0, max: 3 }), (numbers, spare) => {
      const values = new Float64Array(numbers.length + spare);
      values.set(numbers);
      // Positions in a shuffled order that ties must keep.
      const positions = numbers.map((_, i) => (i * 7919) % numbers.length);
      const unique = [...new Set(positions)];
      const expected = [...unique].sort((a, b) => {
        const difference = values[a]! - values[b]!;
        // Infinity - Infinity is NaN: equal numbers tie.
        return Number.isNaN(difference) ? 0 : difference;
      });
      assert.deepEqual([...sortByNumber(unique, values)], expected);
    }),
    { numRuns: 500 },
  );
});

test('sort-order.text: sortByText orders as a stable sort by byText, ties in the given order', () => {
  const textArb = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('', 'a', 'a\u0000', 'ab', 'abcdefgh', 'abcdefghi', 'abcdefghj', 'é', '\u{1F600}', 'Laser'),
    fc.string({ unit: 'binary', maxLength: 10 }),
  );
  fc.assert(
    fc.property(fc.array(textArb, { maxLength: 300 }), (texts) => {
      const positions = texts.map((_, i) => texts.length - 1 - i);
      const expected = [...positions].sort((a, b) => byText(texts[a]!, texts[b]!));
      assert.deepEqual([...sortByText(positions, texts)], expected);
    }),
    { numRuns: 500 },
  );
});
