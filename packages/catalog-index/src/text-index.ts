import type { BitmapPool } from './bitmap-pool.ts';
import { grown, Posting, unionOf, type DocSet } from './posting.ts';

/**
 * Which sounds contain a `q` word in their lower-case search text (name, description and tags).
 * A word never holds whitespace, so it can only occur inside one whitespace-separated token of
 * the text. Two structures answer it exactly, with nothing left to check against the text:
 *
 * - For words of three characters or more: the catalog's vocabulary (every distinct token) with
 *   the sounds holding each token, and the vocabulary's own trigrams. The tokens holding the word
 *   are found among the few tokens that have all its trigrams; the sounds are their postings.
 *   A catalog has far fewer distinct tokens than sounds, so that search is small.
 * - For words of one or two characters, which nearly every token holds: a posting per 1- and
 *   2-character string of the tokens (mostly bitmaps, as such strings are common).
 */
/** The fields whose tokens are kept apart, for relevance: a sound's lower-case name, its tags as stored. */
export const NAME = 0;
export const TAGS = 1;

export class TextIndex {
  private readonly tokenIds = new Map<string, number>();
  private readonly tokens: string[] = [];
  private readonly tokenDocs: Posting[] = [];
  /** Trigram of the vocabulary to the tokens holding it, in increasing token order. */
  private readonly tokenTrigrams = new Map<number, number[]>();
  /** 1- and 2-character strings to the number of their posting in `shortDocs` (a map per length). */
  private readonly short = [new Map<number, number>(), new Map<number, number>()];
  /** The sounds holding each 1- or 2-character string. */
  private readonly shortDocs: Posting[] = [];
  /**
   * Per token, the numbers of its distinct 1- and 2-character strings' postings: token t's are
   * `tokenShort[tokenShortFrom[t]]` up to `tokenShortFrom[t + 1]`. A sound joins them through its
   * tokens, so the strings of a word are found once for the vocabulary, not at every sound.
   */
  private tokenShort = new Uint32Array(64);
  private tokenShortFrom = new Uint32Array(64);
  /** 1- and 2-character strings of the vocabulary to the tokens holding them, in increasing token order. */
  private readonly tokenShortGrams = [new Map<number, number[]>(), new Map<number, number[]>()];
  /** Per field (NAME, TAGS), per token: the sounds holding the token in that field. */
  private readonly fieldDocs: Array<Array<Posting | undefined>> = [[], []];

  add(doc: number, text: string, capacity: number): void {
    forEachToken(text, (token) => {
      const id = this.tokenId(token);
      this.tokenDocs[id]!.add(doc, capacity);
      for (let at = this.tokenShortFrom[id]!; at < this.tokenShortFrom[id + 1]!; at++)
        this.shortDocs[this.tokenShort[at]!]!.add(doc, capacity);
    });
  }

  remove(doc: number, text: string): void {
    forEachToken(text, (token) => {
      const id = this.tokenIds.get(token);
      if (id === undefined) return;
      this.tokenDocs[id]!.remove(doc);
      for (let at = this.tokenShortFrom[id]!; at < this.tokenShortFrom[id + 1]!; at++)
        this.shortDocs[this.tokenShort[at]!]!.remove(doc);
    });
  }

  /** Puts a sound in the postings of one field's tokens (the field's text as relevance reads it). */
  addField(field: number, doc: number, text: string, capacity: number): void {
    const postings = this.fieldDocs[field]!;
    forEachToken(text, (token) => {
      const id = this.tokenId(token);
      (postings[id] ??= new Posting()).add(doc, capacity);
    });
  }

  removeField(field: number, doc: number, text: string): void {
    const postings = this.fieldDocs[field]!;
    forEachToken(text, (token) => {
      const id = this.tokenIds.get(token);
      if (id !== undefined) postings[id]?.remove(doc);
    });
  }

  /** The sounds whose text contains `word` (lower case, no whitespace), or null for none. */
  docsFor(word: string, pool: BitmapPool): DocSet | null {
    if (word.length <= 2) {
      const number = this.short[word.length - 1]!.get(gramKey(word, 0, word.length));
      const posting = number === undefined ? undefined : this.shortDocs[number]!;
      return posting !== undefined && posting.count > 0 ? posting : null;
    }
    const postings: Posting[] = [];
    for (const token of this.tokensHolding(word)) {
      const posting = this.tokenDocs[token]!;
      if (posting.count > 0) postings.push(posting);
    }
    if (postings.length === 0) return null;
    return postings.length === 1 ? postings[0]! : unionOf(postings, pool.take());
  }

  /** The tokens of the vocabulary (of any field, held by a sound or not any more) that contain `word`. */
  tokensHolding(word: string): number[] {
    if (word.length <= 2) return this.tokenShortGrams[word.length - 1]!.get(gramKey(word, 0, word.length)) ?? [];
    const lists: number[][] = [];
    for (let at = 0; at + 3 <= word.length; at++) {
      const list = this.tokenTrigrams.get(gramKey(word, at, 3));
      if (list === undefined) return [];
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    return lists[0]!.filter((token) => this.tokens[token]!.includes(word));
  }

  token(id: number): string {
    return this.tokens[id]!;
  }

  /** The sounds whose search text holds this token. */
  docsOf(id: number): Posting {
    return this.tokenDocs[id]!;
  }

  /** The sounds holding this token in one field (NAME, TAGS), if any ever did. */
  fieldDocsOf(field: number, id: number): Posting | undefined {
    return this.fieldDocs[field]![id];
  }

  /** The token's number in the vocabulary, which it joins (with its 1-, 2- and 3-character strings) if new. */
  private tokenId(token: string): number {
    let id = this.tokenIds.get(token);
    if (id === undefined) {
      id = this.tokens.length;
      this.tokenIds.set(token, id);
      this.tokens.push(token);
      this.tokenDocs.push(new Posting());
      let end = this.tokenShortFrom[id]!;
      for (let length = 1; length <= 3; length++) {
        const lists = length === 3 ? this.tokenTrigrams : this.tokenShortGrams[length - 1]!;
        for (let at = 0; at + length <= token.length; at++) {
          const key = gramKey(token, at, length);
          let list = lists.get(key);
          if (list === undefined) lists.set(key, (list = []));
          // A string the token holds twice was seen at its first place.
          if (list[list.length - 1] === id) continue;
          list.push(id);
          if (length === 3) continue;
          const numbers = this.short[length - 1]!;
          let number = numbers.get(key);
          if (number === undefined) {
            number = this.shortDocs.length;
            numbers.set(key, number);
            this.shortDocs.push(new Posting());
          }
          if (end === this.tokenShort.length) this.tokenShort = grown(this.tokenShort, end * 2);
          this.tokenShort[end++] = number;
        }
      }
      if (id + 1 === this.tokenShortFrom.length) this.tokenShortFrom = grown(this.tokenShortFrom, (id + 1) * 2);
      this.tokenShortFrom[id + 1] = end;
    }
    return id;
  }
}

const WHITESPACE = /\s/;

function isSpace(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  // The common cases first; the rest of what \s means (no-break and other Unicode spaces) by regex.
  if (code === 32) return true;
  if (code < 128) return code >= 9 && code <= 13;
  return WHITESPACE.test(text[at]!);
}

function forEachToken(text: string, visit: (token: string) => void): void {
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && !isSpace(text, i)) continue;
    if (i > start) visit(text.slice(start, i));
    start = i + 1;
  }
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
