import { Posting } from './posting.ts';

/**
 * Which sounds contain which 1-, 2- and 3-character strings of their lower-case search text
 * (name, description and tags). A `q` word can only occur inside one whitespace-separated token
 * (words never hold whitespace), so strings across tokens are not indexed.
 *
 * A word of up to three characters is answered exactly by its own posting. A longer word's
 * trigrams narrow the sounds down to those holding all of them, which is not yet proof that they
 * hold the word ("abcd" and "bcde" both appear in "abcde"): those are checked against the text.
 */
export class TextIndex {
  private readonly grams = [new Map<number, Posting>(), new Map<number, Posting>(), new Map<number, Posting>()];

  add(doc: number, text: string, capacity: number): void {
    forEachGram(text, (length, key) => {
      const postings = this.grams[length - 1]!;
      let posting = postings.get(key);
      if (posting === undefined) postings.set(key, (posting = new Posting()));
      posting.add(doc, capacity);
    });
  }

  remove(doc: number, text: string): void {
    forEachGram(text, (length, key) => {
      const postings = this.grams[length - 1]!;
      const posting = postings.get(key);
      if (posting === undefined) return;
      posting.remove(doc);
      if (posting.count === 0) postings.delete(key);
    });
  }

  /**
   * The postings every sound containing `word` is in, or null when no sound can contain it.
   * `exact` says whether being in all of them proves the word is there.
   */
  postingsFor(word: string): { postings: Posting[]; exact: boolean } | null {
    const length = Math.min(word.length, 3);
    const postings: Posting[] = [];
    for (let i = 0; i + length <= word.length; i++) {
      const posting = this.grams[length - 1]!.get(gramKey(word, i, length));
      if (posting === undefined) return null;
      postings.push(posting);
    }
    return { postings, exact: word.length <= 3 };
  }

  get bytes(): number {
    let total = 0;
    for (const postings of this.grams) for (const posting of postings.values()) total += posting.bytes + 64;
    return total;
  }
}

const WHITESPACE = /\s/;

/** Calls `visit` for every 1-, 2- and 3-character run inside a token (repeats included). */
function forEachGram(text: string, visit: (length: number, key: number) => void): void {
  let tokenStart = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && !isSpace(text, i)) continue;
    for (let at = tokenStart; at < i; at++) {
      for (let length = 1; length <= 3 && at + length <= i; length++) visit(length, gramKey(text, at, length));
    }
    tokenStart = i + 1;
  }
}

function isSpace(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  // The common cases first; the rest of what \s means (no-break and other Unicode spaces) by regex.
  if (code === 32) return true;
  if (code < 128) return code >= 9 && code <= 13;
  return WHITESPACE.test(text[at]!);
}

/**
 * A number for the `length` UTF-16 units at `at`: a small integer for ASCII (7 bits a unit, what
 * V8 keeps unboxed), else 16 bits a unit above 2^21, so the two kinds never meet.
 */
export function gramKey(text: string, at: number, length: number): number {
  let ascii = 0;
  let wide = 0;
  let isAscii = true;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(at + i);
    if (code >= 128) isAscii = false;
    ascii = (ascii << 7) | code;
    wide = wide * 65536 + code;
  }
  return isAscii ? ascii : 2 ** 21 + wide;
}
