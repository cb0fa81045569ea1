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
 * - A token with punctuation at an end ("hit," or "(laser)") is kept twice: as written and without
 *   the punctuation at its ends ("hit", its core). A word that begins and ends with a letter or
 *   digit can only lie inside a token's core, so it reads cores alone: "hit" is one posting, not
 *   the union of "hit", "hit," and "hit.". A word with punctuation at an end reads both kinds.
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
      // The 1- and 2-character strings of the token as written hold those of its core.
      for (let at = this.tokenShortFrom[id]!; at < this.tokenShortFrom[id + 1]!; at++)
        this.shortDocs[this.tokenShort[at]!]!.add(doc, capacity);
      const core = coreOf(token);
      if (core !== null) this.tokenDocs[this.tokenId(core)]!.add(doc, capacity);
    });
  }

  remove(doc: number, text: string): void {
    forEachToken(text, (token) => {
      const id = this.tokenIds.get(token);
      if (id === undefined) return;
      this.tokenDocs[id]!.remove(doc);
      for (let at = this.tokenShortFrom[id]!; at < this.tokenShortFrom[id + 1]!; at++)
        this.shortDocs[this.tokenShort[at]!]!.remove(doc);
      const core = coreOf(token);
      if (core !== null) this.tokenDocs[this.tokenIds.get(core)!]!.remove(doc);
    });
  }

  /** Puts a sound in the postings of one field's tokens (the field's text as relevance reads it). */
  addField(field: number, doc: number, text: string, capacity: number): void {
    const postings = this.fieldDocs[field]!;
    forEachToken(text, (token) => {
      (postings[this.tokenId(token)] ??= new Posting()).add(doc, capacity);
      const core = coreOf(token);
      if (core !== null) (postings[this.tokenId(core)] ??= new Posting()).add(doc, capacity);
    });
  }

  removeField(field: number, doc: number, text: string): void {
    const postings = this.fieldDocs[field]!;
    forEachToken(text, (token) => {
      const id = this.tokenIds.get(token);
      if (id === undefined) return;
      postings[id]?.remove(doc);
      const core = coreOf(token);
      if (core !== null) postings[this.tokenIds.get(core)!]?.remove(doc);
    });
  }

  /** Gives back the room the postings kept to grow into (after a first load). */
  trim(): void {
    for (const posting of this.tokenDocs) posting.trim();
    for (const posting of this.shortDocs) posting.trim();
    for (const postings of this.fieldDocs) for (const posting of postings) posting?.trim();
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
    return postings.length === 1 ? postings[0]! : unionOf(postings, pool);
  }

  /**
   * The tokens of the vocabulary (of any field, held by a sound or not any more) that contain
   * `word`: for a word that begins and ends with a letter or digit, the cores alone (every token
   * as written holding it has its core among them, whose sounds hold it at the same place).
   */
  tokensHolding(word: string): number[] {
    const coresOnly = isCore(word);
    if (word.length <= 2) {
      const list = this.tokenShortGrams[word.length - 1]!.get(gramKey(word, 0, word.length)) ?? [];
      return coresOnly ? list.filter((token) => isCore(this.tokens[token]!)) : list;
    }
    const lists: number[][] = [];
    for (let at = 0; at + 3 <= word.length; at++) {
      const list = this.tokenTrigrams.get(gramKey(word, at, 3));
      if (list === undefined) return [];
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    return lists[0]!.filter((token) => {
      const text = this.tokens[token]!;
      return (!coresOnly || isCore(text)) && text.includes(word);
    });
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

/**
 * A token without the characters other than letters and digits at its ends, when that is neither
 * the token itself nor empty (then null: the token has no core of its own to index).
 */
function coreOf(token: string): string | null {
  let start = 0;
  let end = token.length;
  while (start < end && !isWordCharacter(token, start)) start++;
  while (end > start && !isWordCharacter(token, end - 1)) end--;
  return start === end || (start === 0 && end === token.length) ? null : token.slice(start, end);
}

/** Whether a text begins and ends with a letter or digit (a word then lies inside tokens' cores). */
function isCore(text: string): boolean {
  return isWordCharacter(text, 0) && isWordCharacter(text, text.length - 1);
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Whether the UTF-16 unit at `at` is a letter or a digit: what bounds a word (relevance too). */
export function isWordCharacter(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return LETTER_OR_DIGIT.test(text[at]!);
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
