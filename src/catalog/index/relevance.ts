/**
 * How well a sound matches the words of `q`, for `sort=relevance`. Each word scores where it was
 * found best: the field first (name above a tag above the description), then the place (a whole
 * word above a word's beginning above the inside of a word). A sound's score is the sum over the
 * words; sounds scoring the same are ordered by downloads, then id, like the downloads sort.
 *
 * Scores are small integers (1 to 9 per word), so a page is read bucket by bucket, best first.
 * Two ways give the same scores: per sound from its text (relevanceOf), or per set from the text
 * index (levelsOf): the sounds of each score found a word of 32 sounds at a time, whatever the
 * number of matches.
 */
import type { BitmapPool } from './bitmap-pool.ts';
import { countBits } from './posting.ts';
import { NAME, TAGS, type TextIndex } from './text-index.ts';

const FIELD_NAME = 2;
const FIELD_TAG = 1;
const FIELD_DESCRIPTION = 0;
const WHOLE = 2;
const BEGINNING = 1;
const INSIDE = 0;

/** The highest score one word can have. */
export const BEST_WORD_SCORE = 1 + FIELD_NAME * 3 + WHOLE;

/** The rest of a sound's text, read only for a word its name does not hold. */
export interface OtherFields {
  tags(): string[];
  description(): string | null;
}

/**
 * The score of one sound for lower-case words that all occur in its text (0 for a word found
 * nowhere). The name comes in lower case (the index keeps it so); tags are read in lower case (the
 * writer stores them so, but a row written otherwise is read as search reads it).
 */
export function relevanceOf(lowerName: string, other: OtherFields, words: string[]): number {
  let total = 0;
  let tags: string[] | null = null;
  let lowerDescription: string | null = null;
  for (const word of words) {
    let best = placeIn(lowerName, word);
    if (best >= 0) {
      total += 1 + FIELD_NAME * 3 + best;
      continue;
    }
    tags ??= other.tags();
    for (const tag of tags) best = Math.max(best, placeIn(tag.toLowerCase(), word));
    if (best >= 0) {
      total += 1 + FIELD_TAG * 3 + best;
      continue;
    }
    lowerDescription ??= (other.description() ?? '').toLowerCase();
    best = placeIn(lowerDescription, word);
    if (best >= 0) total += 1 + FIELD_DESCRIPTION * 3 + best;
  }
  return total;
}

/** The sounds of one score: a bitmap over positions, and how many. */
export interface Level {
  score: number;
  bits: Uint32Array;
  count: number;
}

/**
 * The sounds of `found` (a bitmap, left as it was) grouped by their score for `words`, as
 * relevanceOf gives it, empty groups left out. Every sound of `found` must hold every word in its
 * search text: one whose name and tags lack a word then holds it in its description.
 *
 * Per word, the vocabulary's tokens holding it are few next to the sounds (a common word is one
 * token held by thousands); each token's place of the word is found once, and the sounds holding
 * the token in their name, their tags or anywhere are added to the set of that score. Each sound
 * of `found` goes to the best score whose set holds it; what no set holds found the word inside a
 * word of its description. The words' groups are then combined score by score.
 */
export function levelsOf(text: TextIndex, words: string[], found: Uint32Array, pool: BitmapPool): Level[] {
  let levels = wordLevels(text, words[0]!, found, pool);
  for (let i = 1; i < words.length; i++) {
    const next = wordLevels(text, words[i]!, found, pool);
    const sums = new Map<number, Uint32Array>();
    for (const a of levels) {
      for (const b of next) {
        let sum = sums.get(a.score + b.score);
        if (sum === undefined) sums.set(a.score + b.score, (sum = pool.take()));
        for (let word = 0; word < sum.length; word++) sum[word]! |= a.bits[word]! & b.bits[word]!;
      }
    }
    levels = [...sums].map(([score, bits]) => ({ score, bits, count: countBits(bits) })).filter((level) => level.count > 0);
  }
  return levels;
}

/** The sounds of `found` by their score for one word (levelsOf). */
function wordLevels(text: TextIndex, word: string, found: Uint32Array, pool: BitmapPool): Level[] {
  // sets[score]: the sounds that reach at least that score, for scores 2 to 9.
  const sets: Array<Uint32Array | null> = new Array(BEST_WORD_SCORE + 1).fill(null);
  const setOf = (score: number) => (sets[score] ??= pool.take());
  for (const token of text.tokensHolding(word)) {
    const place = placeIn(text.token(token), word);
    const inName = text.fieldDocsOf(NAME, token);
    if (inName !== undefined && inName.count > 0) inName.orInto(setOf(1 + FIELD_NAME * 3 + place));
    const inTags = text.fieldDocsOf(TAGS, token);
    if (inTags !== undefined && inTags.count > 0) inTags.orInto(setOf(1 + FIELD_TAG * 3 + place));
    // Anywhere: it only counts for sounds without the word in name or tags, so in the description.
    // Inside a word is the lowest score, what is left at the end.
    const anywhere = text.docsOf(token);
    if (place > INSIDE && anywhere.count > 0) anywhere.orInto(setOf(1 + FIELD_DESCRIPTION * 3 + place));
  }
  const rest = pool.take();
  rest.set(found.length <= rest.length ? found : found.subarray(0, rest.length));
  const levels: Level[] = [];
  for (let score = BEST_WORD_SCORE; score >= 2; score--) {
    const bits = sets[score];
    if (bits === null || bits === undefined) continue;
    // The set becomes the sounds of exactly this score; they leave `rest`.
    for (let i = 0; i < rest.length; i++) {
      const taken = bits[i]! & rest[i]!;
      bits[i] = taken;
      rest[i]! ^= taken;
    }
    const count = countBits(bits);
    if (count > 0) levels.push({ score, bits, count });
  }
  const count = countBits(rest);
  if (count > 0) levels.push({ score: 1 + FIELD_DESCRIPTION * 3 + INSIDE, bits: rest, count });
  return levels;
}

/** The best place `word` occurs in `text` (WHOLE, BEGINNING or INSIDE), or -1 when it does not. */
function placeIn(text: string, word: string): number {
  let best = -1;
  for (let at = text.indexOf(word); at >= 0 && best < WHOLE; at = text.indexOf(word, at + 1)) {
    const starts = at === 0 || !isWordCharacter(text, at - 1);
    const ends = at + word.length === text.length || !isWordCharacter(text, at + word.length);
    best = Math.max(best, starts ? (ends ? WHOLE : BEGINNING) : INSIDE);
  }
  return best;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function isWordCharacter(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return LETTER_OR_DIGIT.test(text[at]!);
}
