/**
 * How well a sound matches the words of `q`, for `sort=relevance`. Each word scores where it was
 * found best: the field first (name above a tag above the description), then the place (a whole
 * word above a word's beginning above the inside of a word). A sound's score is the sum over the
 * words; sounds scoring the same are ordered by downloads, then id, like the downloads sort.
 *
 * Scores are small integers (1 to 9 per word), so a page is read bucket by bucket, best first.
 */

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
 * nowhere). The name comes in lower case (the index keeps it so), tags are lower case already.
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
    for (const tag of tags) best = Math.max(best, placeIn(tag, word));
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
