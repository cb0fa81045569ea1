import type { BitCounter } from './bit-counter.ts';
import type { BitmapPool } from './bitmap-pool.ts';
import type { Found } from './page-reader.ts';
import { grown, Posting } from './posting.ts';
import { TOP_TAG_FACETS, type Facet, type Facets } from './query.ts';
import { CATEGORIES, type Category } from './sound.ts';
import type { SoundColumns } from './sound-columns.ts';
import type { SharedStrings } from './text-column.ts';

// Tuned constants, measured with bench/facets.ts and explained in the package's README. Costs are
// in words of a bitmap counted against what was found (bit-counter.ts).
/** A position of a sorted array (a rare tag's posting) counted against what was found. */
const LISTED_COST = 4;
/** A word of a bitmap walked in JavaScript, for the sounds found or those not found. */
const WALK_WORD_COST = 8;
/**
 * Reading a sound's tags (where its list starts, its length, its numbers) and counting them, in
 * increasing position: at least TAG_READ_COST when the sounds read are close together, SPACING_COST
 * more per position between two of them (each read misses the caches more often), at most
 * SCATTERED_READ_COST. The sounds not found cost twice as much (OUTSIDE_FACTOR); a sound's category
 * (one column where the tags take three) half as much.
 */
const TAG_READ_COST = 40;
const SPACING_COST = 14;
const SCATTERED_READ_COST = 700;
const OUTSIDE_FACTOR = 2;

/**
 * The postings of the tags and how many sounds carry each (its total), kept exact as sounds are
 * added, changed and removed, with the tags in an order of their totals, largest first. Tags are
 * named by their number in the tag column's shared strings (sound-columns.ts), which never
 * changes. The order is kept by swaps: a total that goes up by one moves its tag to the front of
 * the tags with the same total, and then it is the last of the tags with the total above (down:
 * to the back, then the first of those below): two places per total, the first and the last tag
 * with it, say where each run of equal totals is.
 */
export class TagTotals {
  /** Per tag number: the sounds carrying the tag, or undefined while none does. */
  private readonly postings: Array<Posting | undefined> = [];
  /** Per tag number: how many sounds carry it (the posting's count, 0 without one). */
  private totals = new Uint32Array(64);
  /** Tag numbers, totals descending; `size` of them, every number the strings have handed out. */
  private order = new Uint32Array(64);
  /** Per tag number: its place in `order`. */
  private place = new Uint32Array(64);
  /** Per total: the first and the last place in `order` of a tag with it (read only while one has it). */
  private firsts = new Uint32Array(64);
  private lasts = new Uint32Array(64);
  private size = 0;

  constructor(private readonly strings: SharedStrings) {}

  posting(tag: string): Posting | undefined {
    const number = this.strings.find(tag);
    return number === undefined ? undefined : this.postings[number];
  }

  /** Gives back the room the postings kept to grow into (after a first load). */
  trim(): void {
    for (const posting of this.postings) posting?.trim();
  }

  /** Puts a sound in the postings of its tags. */
  add(doc: number, tags: string[], capacity: number): void {
    for (const tag of tags) {
      const number = this.strings.numberOf(tag);
      while (this.size <= number) this.append();
      let posting = this.postings[number];
      if (posting === undefined) this.postings[number] = posting = new Posting();
      const before = posting.count;
      posting.add(doc, capacity);
      if (posting.count !== before) this.raise(number);
    }
  }

  /** Takes a sound out of the postings of these tags. */
  remove(doc: number, tags: string[]): void {
    for (const tag of tags) {
      const number = this.strings.find(tag);
      const posting = number === undefined ? undefined : this.postings[number];
      if (posting === undefined) continue;
      const before = posting.count;
      posting.remove(doc);
      if (posting.count !== before) this.lower(number!);
      // An empty posting is dropped: a bitmap left behind would hold a bit per sound of the catalog.
      if (posting.count === 0) this.postings[number!] = undefined;
    }
  }

  /** The tag numbers and their postings, totals descending, while `visit` returns true. */
  forEachByTotal(visit: (number: number, total: number, posting: Posting) => boolean): void {
    const { order, totals, postings } = this;
    for (let i = 0; i < this.size; i++) {
      const number = order[i]!;
      const total = totals[number]!;
      if (total === 0 || !visit(number, total, postings[number]!)) return;
    }
  }

  /** The total of the tag at this place of the order (0 past the end). */
  totalAt(place: number): number {
    return place < this.size ? this.totals[this.order[place]!]! : 0;
  }

  /** How many tag numbers there are. */
  get numbers(): number {
    return this.size;
  }

  /** A tag number not seen before, with a total of 0: the last in the order. */
  private append(): void {
    const at = this.size;
    if (at === this.order.length) {
      this.order = grown(this.order, at * 2);
      this.place = grown(this.place, at * 2);
      this.totals = grown(this.totals, at * 2);
    }
    this.order[at] = at;
    this.place[at] = at;
    this.totals[at] = 0;
    if (at > 0 && this.totals[this.order[at - 1]!] === 0) this.lasts[0] = at;
    else this.firsts[0] = this.lasts[0] = at;
    this.size++;
  }

  private raise(number: number): void {
    const total = this.totals[number]!;
    if (total + 1 >= this.firsts.length) {
      this.firsts = grown(this.firsts, (total + 1) * 2);
      this.lasts = grown(this.lasts, (total + 1) * 2);
    }
    const first = this.firsts[total]!;
    const last = this.lasts[total]!;
    this.swap(this.place[number]!, first);
    this.totals[number] = total + 1;
    if (first > 0 && this.totals[this.order[first - 1]!] === total + 1) this.lasts[total + 1] = first;
    else this.firsts[total + 1] = this.lasts[total + 1] = first;
    if (first !== last) this.firsts[total] = first + 1;
  }

  private lower(number: number): void {
    const total = this.totals[number]!;
    const first = this.firsts[total]!;
    const last = this.lasts[total]!;
    this.swap(this.place[number]!, last);
    this.totals[number] = total - 1;
    if (last + 1 < this.size && this.totals[this.order[last + 1]!] === total - 1) this.firsts[total - 1] = last;
    else this.firsts[total - 1] = this.lasts[total - 1] = last;
    if (first !== last) this.lasts[total] = last - 1;
  }

  private swap(a: number, b: number): void {
    const x = this.order[a]!;
    const y = this.order[b]!;
    this.order[a] = y;
    this.order[b] = x;
    this.place[y] = a;
    this.place[x] = b;
  }
}

/** The ways tags are counted over what was found, when it is not the whole catalog. */
export const TAG_WAYS = ['outside', 'by tag', 'by sound'] as const;
export type TagWay = (typeof TAG_WAYS)[number];

/**
 * For tests: the way tags are counted, in place of the cheapest, whenever it can be (the
 * sounds not found only when they are fewer than half); null: the cheapest.
 */
export const tagWayForTests: { way: TagWay | null } = { way: null };

/** What the facets are counted from. */
export interface FacetSource {
  columns: SoundColumns;
  tags: TagTotals;
  /** A posting per category, in the order of CATEGORIES. */
  categories: Posting[];
  /** How many sounds the index holds. */
  count: number;
  pool: BitmapPool;
  counter: BitCounter;
}

/**
 * Counts per category and the most frequent tags over what was found. Over the whole catalog
 * they are the totals. Over most of it (more than half), the sounds NOT found are fewer: they are
 * counted, and taken from the totals. Else categories are counted set by set (by the BitCounter)
 * and tags either so, tag by tag, or over the matches one by one, whichever costs less (the
 * constants above). Tags are visited in the order of their totals, largest
 * first: once the tags listed are TOP_TAG_FACETS and a tag's total is below the last one's count,
 * neither it nor any tag after it can be listed, and none is counted.
 */
export function facetsOf(found: Found, wanted: readonly Facet[], source: FacetSource): Facets {
  const { columns, tags, count } = source;
  const everything = !('list' in found) && !('bits' in found);
  const matches = 'list' in found ? found.list.length : 'bits' in found ? found.count : count;
  const words = (columns.capacity + 31) >>> 5;
  const wantsTags = wanted.includes('tags');
  const wantsCategories = wanted.includes('category');
  // What walking the sounds not found costs: every word of the found bitmap (or position, for a
  // list), and each such sound read.
  const outside = count - matches;
  const walkOutside = 'list' in found ? columns.size : words * WALK_WORD_COST;
  const outsideCost = !everything && 2 * matches > count ? walkOutside : Infinity;
  const outsideReads = outside * OUTSIDE_FACTOR * readCost(count, outside);

  let tagWay: TagWay | 'totals' = 'totals';
  if (wantsTags && !everything) {
    const byTag = byTagCost(tags, matches, count, words) + ('list' in found ? matches : 0);
    const bySound = matches * readCost(count, matches) + ('bits' in found ? words * WALK_WORD_COST : 0);
    const fromOutside = outsideCost + outsideReads;
    const forced = tagWayForTests.way;
    if (forced !== null && (forced !== 'outside' || outsideCost < Infinity)) tagWay = forced;
    else tagWay = fromOutside <= byTag && fromOutside <= bySound ? 'outside' : byTag <= bySound ? 'by tag' : 'by sound';
  }
  const categoriesOutside =
    wantsCategories &&
    !everything &&
    (tagWay === 'outside' || outsideCost + outsideReads / 2 < CATEGORIES.length * words);

  // The sounds not found, counted per tag number and per category, when either facet wants them.
  const tagsOutside = tagWay === 'outside' ? new Uint32Array(columns.tags.shared.texts.length) : null;
  const categoryOutside = new Uint32Array(CATEGORIES.length + 1);
  if (tagsOutside !== null || categoriesOutside) {
    const { category } = columns;
    forEachOutside(found, columns, (doc) => {
      if (tagsOutside !== null) columns.tags.countInto(doc, tagsOutside);
      categoryOutside[category[doc]!]!++;
    });
  }

  const facets: Facets = {};
  // Set by set: each posting counted against what was found in WebAssembly (copied there once).
  let against: Uint32Array | null = null;
  const countIn = (posting: Posting, bits: Uint32Array) => {
    if (against !== bits) source.counter.against((against = bits));
    const map = posting.bitmap();
    return map !== null ? source.counter.countBitmap(map) : source.counter.countList(posting.sorted()!);
  };
  if (wantsCategories) {
    const counts = source.categories.map((posting, i) => {
      if (everything) return posting.count;
      if (categoriesOutside) return posting.count - categoryOutside[i + 1]!;
      return 'bits' in found ? countIn(posting, found.bits) : 0;
    });
    if ('list' in found && !categoriesOutside)
      for (const doc of found.list) if (columns.category[doc] !== 0) counts[columns.category[doc]! - 1]!++;
    facets.category = Object.fromEntries(CATEGORIES.map((name, i) => [name, counts[i]!])) as Record<Category, number>;
  }
  if (wantsTags) {
    const texts = columns.tags.shared.texts;
    const best = new TopTags(texts);
    if (tagWay === 'totals') tags.forEachByTotal((number, total) => best.offer(number, total, total));
    else if (tagWay === 'outside')
      tags.forEachByTotal((number, total) => best.offer(number, total, total - tagsOutside![number]!));
    else if (tagWay === 'by tag') {
      const bits = 'bits' in found ? found.bits : bitsOf((found as { list: Uint32Array }).list, source.pool);
      tags.forEachByTotal((number, total, posting) => best.offer(number, total, () => countIn(posting, bits)));
    } else {
      // Tags are numbered (sound-columns.ts): a count per number, then the tags counted.
      const perNumber = new Uint32Array(columns.tags.shared.texts.length);
      if ('bits' in found) columns.tags.countOver(found.bits, perNumber);
      else for (const doc of (found as { list: Uint32Array }).list) columns.tags.countInto(doc, perNumber);
      tags.forEachByTotal((number, total) => best.offer(number, total, perNumber[number]!));
    }
    facets.tags = best.list();
  }
  return facets;
}

/** What reading one sound's tags costs, `read` of the catalog's `count` sounds read in increasing position. */
function readCost(count: number, read: number): number {
  return Math.min(SCATTERED_READ_COST, Math.max(TAG_READ_COST, (SPACING_COST * count) / Math.max(read, 1)));
}

/**
 * About what counting tag by tag costs: the tags a pruned walk is expected to visit, those whose
 * total, in the share of the catalog found, would reach the count of the TOP_TAG_FACETS-th (a
 * word per 32 sounds of the catalog for a bitmap, LISTED_COST per sound for a sparse posting).
 */
function byTagCost(tags: TagTotals, matches: number, count: number, words: number): number {
  if (count === 0) return 0;
  const reached = (tags.totalAt(TOP_TAG_FACETS - 1) * matches) / count;
  let cost = 0;
  tags.forEachByTotal((_, total, posting) => {
    cost += posting.bitmap() !== null ? words : posting.count * LISTED_COST;
    return total >= reached;
  });
  return cost;
}

/** Calls `visit` with every sound of the catalog that is not in what was found, in increasing position. */
function forEachOutside(found: Found, columns: SoundColumns, visit: (doc: number) => void): void {
  const { alive, size } = columns;
  if ('bits' in found) {
    const bits = found.bits;
    const words = (size + 31) >>> 5;
    for (let word = 0; word < words; word++) {
      let value = word < bits.length ? ~bits[word]! : -1;
      while (value !== 0) {
        const low = value & -value;
        const doc = (word << 5) + 31 - Math.clz32(low);
        if (doc >= size) break;
        if (alive[doc] === 1) visit(doc);
        value ^= low;
      }
    }
  } else if ('list' in found) {
    const list = found.list;
    let at = 0;
    for (let doc = 0; doc < size; doc++) {
      if (at < list.length && list[at] === doc) at++;
      else if (alive[doc] === 1) visit(doc);
    }
  }
}

/** A list of positions as a bitmap of the pool's size. */
function bitsOf(list: Uint32Array, pool: BitmapPool): Uint32Array {
  const bits = pool.take();
  for (const doc of list) bits[doc >>> 5]! |= 1 << (doc & 31);
  return bits;
}

/**
 * The TOP_TAG_FACETS tags with the largest counts, ties in tag order, kept sorted as tags are
 * offered in the order of their totals: the walk ends once a total is below the last count kept.
 */
class TopTags {
  private readonly numbers: number[] = [];
  private readonly counts: number[] = [];

  constructor(private readonly texts: readonly string[]) {}

  /**
   * Offers a tag with its total and its count (or how to count it, only called when it may be
   * listed); false once no tag from this total down can be listed.
   */
  offer(number: number, total: number, count: number | (() => number)): boolean {
    const full = this.counts.length === TOP_TAG_FACETS;
    const last = full ? this.counts[TOP_TAG_FACETS - 1]! : 0;
    if (full && total < last) return false;
    const counted = typeof count === 'number' ? count : count();
    if (counted === 0 || (full && !this.before(counted, number, last, this.numbers[TOP_TAG_FACETS - 1]!))) return true;
    let at = this.counts.length;
    while (at > 0 && this.before(counted, number, this.counts[at - 1]!, this.numbers[at - 1]!)) at--;
    this.counts.splice(at, 0, counted);
    this.numbers.splice(at, 0, number);
    if (this.counts.length > TOP_TAG_FACETS) {
      this.counts.pop();
      this.numbers.pop();
    }
    return true;
  }

  list(): Array<{ tag: string; count: number }> {
    return this.numbers.map((number, i) => ({ tag: this.texts[number]!, count: this.counts[i]! }));
  }

  /** Whether a tag with this count comes before another: a larger count, or the same and the tag first. */
  private before(count: number, number: number, otherCount: number, other: number): boolean {
    return count > otherCount || (count === otherCount && this.texts[number]! < this.texts[other]!);
  }
}
