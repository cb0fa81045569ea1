/**
 * How well a sound matches the words of `q`, for `sort=relevance`. Each word scores where it was
 * found best: the field first (name above a tag above the description), then the place (a whole
 * word above a word's beginning above the inside of a word). A sound's score is the sum over the
 * words; sounds scoring the same are ordered by downloads, then id, like the downloads sort.
 *
 * Scores are small integers (1 to 9 per word), so a page is read bucket by bucket, best first.
 * Three ways give the same scores: per sound from its text (relevanceOf); per sound from the
 * postings of the tokens holding the words (groupsOfSounds); or per set from those postings
 * (levelsOf): the sounds of each score found a word of 32 sounds at a time, whatever the number
 * of matches.
 */
import type { BitmapPool } from './bitmap-pool.ts';
import type { Posting } from './posting.ts';
import { isWordCharacter, NAME, TAGS, type TextIndex } from './text-index.ts';

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

/** Per score (2 to 9): the postings whose sounds reach it for a word, by a token's field and place. */
export type WordPostings = Posting[][];

/**
 * The postings of the vocabulary's tokens holding `word`, by the score they give it: a token in
 * the name or the tags by its field and place; anywhere (so in the description) by its place,
 * a word's inside left out, as it is the lowest score, the one a sound has when no posting holds it.
 */
export function wordPostings(text: TextIndex, word: string): WordPostings {
  const postings: Posting[][] = Array.from({ length: BEST_WORD_SCORE + 1 }, () => []);
  for (const token of text.tokensHolding(word)) {
    const place = placeIn(text.token(token), word);
    const inName = text.fieldDocsOf(NAME, token);
    if (inName !== undefined && inName.count > 0) postings[1 + FIELD_NAME * 3 + place]!.push(inName);
    const inTags = text.fieldDocsOf(TAGS, token);
    if (inTags !== undefined && inTags.count > 0) postings[1 + FIELD_TAG * 3 + place]!.push(inTags);
    const anywhere = text.docsOf(token);
    if (place > INSIDE && anywhere.count > 0) postings[1 + FIELD_DESCRIPTION * 3 + place]!.push(anywhere);
  }
  return postings;
}

/** How many postings a sound's score may ask (groupsOfSounds): the words' postings together. */
export function postingCount(words: WordPostings[]): number {
  let count = 0;
  for (const byScore of words) for (const postings of byScore) count += postings.length;
  return count;
}

/**
 * The sounds of `found` (a bitmap, which this changes) grouped by their score for the words
 * (`words`: each one's postings), as relevanceOf gives it, empty groups left out: best first when
 * `descending`, else worst first. Every sound of `found` must hold every word in its search text:
 * one whose name and tags lack a word then holds it in its description.
 *
 * Groups are listed in the page's order, and only as far as it needs: once the groups listed hold
 * `enough` sounds, the list ends there (a page of a common word is mostly its first group: the
 * sounds named by it). Each word's own groups are worked out best first, as the worst is what the
 * better ones leave: a list worst first works them all out, but adds up only the totals it lists.
 * Per word (WordScores), the vocabulary's tokens holding it are few next to the sounds; the
 * sounds holding a token in their name, their tags or anywhere make the set of one score, and each
 * sound goes to the best score whose set holds it. Several words' scores add up: the group of a
 * total is the union, over the ways of making that total, of the sounds in each word's group of its
 * part.
 */
export function levelsOf(
  words: WordPostings[],
  found: Uint32Array,
  pool: BitmapPool,
  descending: boolean,
  enough: number,
): Level[] {
  // The first word's groups are cut out of `found` itself; the others' out of copies.
  const scores = words.map((postings, i) => new WordScores(postings, i === 0 ? found : pool.copyOf(found), pool));
  const levels: Level[] = [];
  let listed = 0;
  const best = BEST_WORD_SCORE * words.length;
  const worst = WORST_WORD_SCORE * words.length;
  for (let step = 0; step <= best - worst; step++) {
    const total = descending ? best - step : worst + step;
    const level = words.length === 1 ? scores[0]!.level(total) : sumOf(scores, total, pool);
    if (level === null) continue;
    levels.push(level);
    listed += level.count;
    if (listed >= enough) break;
  }
  return levels;
}

/** The sounds of one score, in increasing position. */
export interface ScoredSounds {
  score: number;
  docs: Uint32Array;
}

/**
 * The sounds `docs` (in increasing position, each holding every word) grouped by their score for
 * the words, as levelsOf groups them, best first when `descending`: each sound scored on its own,
 * a word's postings asked best score first until one holds it. A posting is asked in increasing
 * position (Posting.seeker): a bit for a bitmap, a gallop forward in a sorted array. Costs a few
 * postings asked per sound, against levelsOf's passes over bitmaps of the whole catalog.
 */
export function groupsOfSounds(words: WordPostings[], docs: Uint32Array, descending: boolean): ScoredSounds[] {
  const tests = words.map((byScore) => {
    const list: Array<{ score: number; holds: (doc: number) => boolean }> = [];
    for (let score = BEST_WORD_SCORE; score >= WORST_WORD_SCORE; score--)
      for (const posting of byScore[score]!) list.push({ score, holds: posting.seeker() });
    return list;
  });
  const groups = new ScoreGroups();
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i]!;
    let total = 0;
    for (const word of tests) {
      let score = WORST_WORD_SCORE;
      for (const test of word)
        if (test.holds(doc)) {
          score = test.score;
          break;
        }
      total += score;
    }
    groups.add(total, doc);
  }
  return groups.list(descending);
}

/** Sounds grouped by score as they are added, each group in the order added. */
export class ScoreGroups {
  private readonly byScore = new Map<number, number[]>();

  add(score: number, doc: number): void {
    const group = this.byScore.get(score);
    if (group === undefined) this.byScore.set(score, [doc]);
    else group.push(doc);
  }

  /** The groups, best first when `descending`, else worst first. */
  list(descending: boolean): ScoredSounds[] {
    return [...this.byScore]
      .sort(([a], [b]) => (descending ? b - a : a - b))
      .map(([score, group]) => ({ score, docs: Uint32Array.from(group) }));
  }
}

/** The lowest score a word holds (inside a word of the description). */
const WORST_WORD_SCORE = 1 + FIELD_DESCRIPTION * 3 + INSIDE;

/** The sounds whose words' scores add up to `total`, from the words' own groups (null: none). */
function sumOf(scores: WordScores[], total: number, pool: BitmapPool): Level | null {
  let bits: Uint32Array | null = null;
  const parts: Uint32Array[] = [];
  // Every way of writing `total` as one score per word, each from WORST to BEST_WORD_SCORE.
  const visit = (word: number, left: number): void => {
    const rest = scores.length - word - 1;
    const low = Math.max(WORST_WORD_SCORE, left - rest * BEST_WORD_SCORE);
    const high = Math.min(BEST_WORD_SCORE, left - rest * WORST_WORD_SCORE);
    for (let score = high; score >= low; score--) {
      const level = scores[word]!.level(score);
      if (level === null) continue;
      parts[word] = level.bits;
      if (rest > 0) {
        visit(word + 1, left - score);
        continue;
      }
      bits ??= pool.take();
      if (parts.length === 2) pool.orAnd(bits, parts[0]!, parts[1]!);
      else addIntersection(bits, parts);
    }
  };
  visit(0, total);
  if (bits === null) return null;
  const count = pool.count(bits);
  return count > 0 ? { score: total, bits, count } : null;
}

/** Sets in `into` the bits set in every one of `parts` (three words or more; two: BitmapPool.orAnd). */
function addIntersection(into: Uint32Array, parts: Uint32Array[]): void {
  const [first, ...others] = parts as [Uint32Array, ...Uint32Array[]];
  for (let word = 0; word < into.length; word++) {
    let both = first[word]!;
    for (let i = 0; i < others.length && both !== 0; i++) both &= others[i]![word]!;
    into[word]! |= both;
  }
}

/**
 * The sounds of `found` by their score for one word, worked out best score first as they are
 * asked for: each score's group is its set less the sounds of the better scores.
 */
class WordScores {
  private readonly groups: Array<Level | null> = new Array(BEST_WORD_SCORE + 1).fill(null);
  /** The best score whose group is not worked out yet. */
  private next = BEST_WORD_SCORE;

  /** `rest`: the sounds found, a bitmap of the pool's that this takes over (it empties as groups are worked out). */
  constructor(
    private readonly postings: WordPostings,
    private readonly rest: Uint32Array,
    private readonly pool: BitmapPool,
  ) {}

  /** The sounds of exactly this score, or null for none. */
  level(score: number): Level | null {
    for (; this.next >= score; this.next--) this.groups[this.next] = this.group(this.next);
    return this.groups[score]!;
  }

  private group(score: number): Level | null {
    const rest = this.rest;
    if (score === WORST_WORD_SCORE) {
      const count = this.pool.count(rest);
      return count > 0 ? { score, bits: rest, count } : null;
    }
    const postings = this.postings[score]!;
    if (postings.length === 0) return null;
    // A bitmap among the postings is copied rather than ORed into a zeroed one.
    let first: Uint32Array | null = null;
    let listed = 0;
    for (const posting of postings) {
      first ??= posting.bitmap();
      listed += posting.count;
    }
    if (first === null && listed <= rest.length) return this.listedGroup(score, postings, this.pool.take());
    const bits = first === null ? this.pool.take() : this.pool.copyOf(first);
    for (const posting of postings) {
      const map = posting.bitmap();
      if (map === null) posting.orInto(bits);
      else if (map !== first) this.pool.orInto(bits, map);
    }
    // The set becomes the sounds of exactly this score; they leave `rest`.
    const count = this.pool.claim(bits, rest);
    return count > 0 ? { score, bits, count } : null;
  }

  /**
   * A group whose postings are all sorted arrays, fewer positions than `rest` has words: each
   * position is moved from `rest` to `bits` (empty) on its own, rather than in a pass over both.
   */
  private listedGroup(score: number, postings: Posting[], bits: Uint32Array): Level | null {
    const rest = this.rest;
    let count = 0;
    for (const posting of postings) {
      const docs = posting.sorted()!;
      for (let i = 0; i < docs.length; i++) {
        const word = docs[i]! >>> 5;
        const bit = 1 << (docs[i]! & 31);
        if ((rest[word]! & bit) === 0) continue;
        rest[word]! ^= bit;
        bits[word]! |= bit;
        count++;
      }
    }
    return count > 0 ? { score, bits, count } : null;
  }
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
