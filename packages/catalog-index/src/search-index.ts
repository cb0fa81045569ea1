import {
  SORT_FIELDS,
  type Facet,
  type Facets,
  type Page,
  type SampleFilters,
  type SearchFilters,
  type SearchPage,
  type SortField,
} from './query.ts';
import { CATEGORIES, type CatalogRecord, type Sound } from './sound.ts';
import { DurationIndex } from './duration-index.ts';
import { facetsOf, TagTotals } from './facets.ts';
import { BitCounter } from './bit-counter.ts';
import { BitmapPool } from './bitmap-pool.ts';
import { ALL, NOTHING, PageReader, type Found } from './page-reader.ts';
import { forEachBit, grown, Posting, unionOf, type DocSet } from './posting.ts';
import {
  groupsOfSounds,
  levelsOf,
  postingCount,
  relevanceOf,
  ScoreGroups,
  wordPostings,
  type ScoredSounds,
} from './relevance.ts';
import { SimilarityIndex } from './similar.ts';
import { byText, SortOrder, sortByNumber, sortByText } from './sort-order.ts';
import { searchText, SoundColumns } from './sound-columns.ts';
import { NAME, TAGS, TextIndex } from './text-index.ts';

// Tuned constants: the package's README says why each has its value.
/** More new sounds than this in one batch are sorted in from scratch rather than one by one. */
const REBUILD_BATCH = 256;
/** Up to this many words, relevance may score sets of sounds (relevance.ts levelsOf); past it, sound by sound. */
const MOST_WORDS_SCORED_BY_SETS = 3;
/** Scoring by sets reads about this many bitmaps of the catalog's size per word. */
const SET_SCORE_PASSES = 8;
/** Asking one posting whether it holds a sound costs about this many words of a pass over a bitmap. */
const POSTING_TEST_COST = 48;
/** Scoring one word in one sound's text costs about this many words of a pass over a bitmap. */
const TEXT_SCORE_COST = 800;
/** Making a range's bitmap (duration-index.ts within) costs about this many words per word of the catalog. */
const RANGE_WORDS = 1;
/** Visiting one sound of a set costs about this many words of a bitmap intersection. */
const WALK_COST = 10;

export interface SearchIndexOptions {
  /**
   * How much each number of a sound's descriptors counts in similar sounds (SimilarityIndex); a
   * record's descriptors are used when they have as many numbers as there are weights.
   */
  descriptorWeights: readonly number[];
}

/** A range filter of a search: the sounds whose value (in `values`) is within [min, max]. */
interface RangeFilter {
  index: DurationIndex;
  min: number;
  max: number;
  values: Float64Array;
}

/**
 * The catalog in memory, answering every list the API has (search, the sample list, popular)
 * without the database: postings per text fragment and per tag find the matching sounds, which
 * are counted for the total; orders kept sorted per sort field give the page. The database stays
 * the source of truth: the catalog service fills this from it and applies every change it reports.
 */
export class SearchIndex {
  private readonly columns = new SoundColumns();
  private readonly text = new TextIndex();
  /** The tags' postings and how many sounds carry each (facets.ts). */
  private readonly tags = new TagTotals(this.columns.tags.shared);
  private readonly durations = new DurationIndex();
  /** Onsets and loudness (integrated LUFS) by range, as durations are. */
  private readonly onsets = new DurationIndex();
  private readonly loudness = new DurationIndex();
  /** How many sounds the range bounds were chosen from: they are chosen again as the catalog doubles. */
  private boundsChosenAt = 0;
  /** Whether the ranges were made (chooseBounds): until then sounds are not put in them one by one. */
  private rangesMade = false;
  /** A posting per category, in the order of CATEGORIES. */
  private readonly categories = CATEGORIES.map(() => new Posting());
  /** The sounds that are no loop ([0]) and the loops ([1]): every sound is in one of them. */
  private readonly loops = [new Posting(), new Posting()] as const;
  private readonly orders: Record<SortField, SortOrder>;
  /** The catalog in row key order: what cursor walks follow, since a row key never changes. */
  private readonly bySeq: SortOrder;
  /** Database row key (a small integer that only grows) to position + 1; 0 for none. */
  private positions = new Uint32Array(0);
  private sampleIds: number[] | null = null;
  /** Scratch space for one query's matches and marks (queries run one at a time). */
  private matches = new Uint32Array(0);
  private readonly pool = new BitmapPool();
  /** Counts facets' bitmaps over what was found (bit-counter.ts). */
  private readonly counter = new BitCounter();
  private readonly pages: PageReader;
  private readonly similarity: SimilarityIndex;
  /** How many sounds the index holds. */
  count = 0;

  constructor(options: SearchIndexOptions) {
    this.similarity = new SimilarityIndex(options.descriptorWeights);
    const c = this.columns;
    const byNumber = (values: () => Float64Array) => (a: number, b: number) =>
      values()[a]! - values()[b]! || c.compareIds(a, b);
    this.orders = {
      downloads: new SortOrder(byNumber(() => c.downloads)),
      created_at: new SortOrder(byNumber(() => c.created)),
      duration: new SortOrder(byNumber(() => c.duration)),
      name: new SortOrder((a, b) => byText(c.name(a), c.name(b)) || c.compareIds(a, b)),
    };
    this.bySeq = new SortOrder((a, b) => c.seq[a]! - c.seq[b]!);
    this.pages = new PageReader(
      this.orders,
      () => c.duration,
      () => this.matches,
      this.pool,
    );
  }

  /**
   * Room for a first load of about `sounds` sounds, made before it starts: the columns, the
   * orders and the descriptor rows are then allocated once, at their size (similar.ts reserveFor).
   */
  expect(sounds: number): void {
    this.columns.reserve(sounds);
    this.similarity.reserveFor(sounds);
  }

  /** Adds the sounds of a first load; `loaded()` then sorts them once. */
  load(records: CatalogRecord[]): void {
    for (const record of records) if (this.positionOf(record.seq) === undefined) this.add(record);
  }

  loaded(): void {
    this.columns.trim();
    this.text.trim();
    this.tags.trim();
    this.rebuildOrders();
    this.similarity.prepare();
  }

  /** Applies rows as they are now (new or changed) and removals, by database row key. */
  apply(records: CatalogRecord[], removed: number[] = []): void {
    const added: number[] = [];
    for (const seq of removed) this.remove(seq);
    for (const record of records) {
      const known = this.positionOf(record.seq);
      if (known === undefined) added.push(this.add(record));
      else this.update(known, record);
    }
    if (added.length > REBUILD_BATCH) this.rebuildOrders();
    else {
      // The id order first: the others break their ties with it.
      for (const doc of added) this.columns.byId.insert(doc);
      for (const doc of added) for (const field of SORT_FIELDS) this.orders[field].insert(doc);
      for (const doc of added) this.bySeq.insert(doc);
    }
  }

  /**
   * A sound's download count as committed (catalog/download-counts.ts): into the downloads order
   * at once. Counts only go up, so one older than the count held is ignored.
   */
  countedDownload(seq: number, count: number): void {
    const doc = this.positionOf(seq);
    if (doc === undefined || count <= this.columns.downloads[doc]!) return;
    this.columns.downloads[doc] = count;
    this.orders.downloads.move(doc);
  }

  search(filters: SearchFilters): SearchPage {
    const found = this.find(filters);
    if (filters.after !== undefined) return this.walk(found, filters.after, filters);
    const total = 'list' in found ? found.list.length : 'bits' in found ? found.count : this.count;
    // Facets first: reading a page may reuse the scratch list that what was found is in.
    const wanted = filters.facets !== undefined && filters.facets.length > 0 ? filters.facets : null;
    const facets = wanted ? this.facetsOf(found, wanted) : null;
    const docs =
      filters.sort === 'relevance' && filters.words.length > 0
        ? this.byRelevance(found, total, filters)
        : // Without words every sound matches as well as any other: relevance orders like downloads.
          this.pages.page(found, filters, filters.sort === 'relevance' ? 'downloads' : filters.sort, this.count);
    const page: SearchPage = { items: docs.map((doc) => this.columns.sound(doc)), total };
    if (facets) page.facets = facets;
    return page;
  }

  /**
   * A page of a cursor walk: the first `limit` matches whose row key is above `after`, in row key
   * order. A row key never changes and is never reused, so a walk sees every sound that stays in
   * the catalog from its start to its end exactly once, whatever is added or removed meanwhile.
   */
  private walk(found: Found, after: number, filters: SearchFilters): SearchPage {
    const { order, size } = this.bySeq;
    const seqs = this.columns.seq;
    let from = 0;
    for (let to = size; from < to; ) {
      const middle = (from + to) >>> 1;
      if (seqs[order[middle]!]! <= after) from = middle + 1;
      else to = middle;
    }
    // One more than the page tells whether the walk goes on.
    const docs = this.pages.walk(found, this.bySeq, from, filters.limit + 1);
    const more = docs.length > filters.limit;
    if (more) docs.pop();
    const total = 'list' in found ? found.list.length : 'bits' in found ? found.count : this.count;
    const facets = filters.facets !== undefined && filters.facets.length > 0 ? filters.facets : null;
    const page: SearchPage = {
      items: docs.map((doc) => this.columns.sound(doc)),
      total,
      nextAfter: more ? seqs[docs[docs.length - 1]!]! : null,
    };
    if (facets) page.facets = this.facetsOf(found, facets);
    return page;
  }

  private facetsOf(found: Found, wanted: Facet[]): Facets {
    const { columns, tags, categories, count, pool, counter } = this;
    return facetsOf(found, wanted, { columns, tags, categories, count, pool, counter });
  }

  /** How many sounds have audio descriptors, and so take part in similar sounds. */
  get described(): number {
    return this.similarity.size;
  }

  /**
   * The sounds that sound most like the one with this database row key, most similar first, or
   * null when this index does not hold that sound (yet). A sound without descriptors has none.
   */
  similar(seq: number, limit: number): Array<{ sound: Sound; similarity: number }> | null {
    const doc = this.positionOf(seq);
    if (doc === undefined) return null;
    return this.similarity
      .nearest(doc, limit)
      .map(({ doc: other, similarity }) => ({ sound: this.columns.sound(other), similarity }));
  }

  /** Sample sounds by id; `q` words in the name or description, any of the tags. */
  samples(filters: SampleFilters): Page<Sound> {
    const c = this.columns;
    const items: Sound[] = [];
    let total = 0;
    for (const doc of this.sampleList()) {
      if (filters.tags.length > 0 && !c.tags.get(doc).some((tag) => filters.tags.includes(tag))) continue;
      if (filters.words.length > 0) {
        const text = `${c.name(doc)} ${c.descriptions.get(doc) ?? ''}`.toLowerCase();
        if (!filters.words.every((word) => text.includes(word))) continue;
      }
      if (total++ < filters.limit) items.push(c.sound(doc));
    }
    return { items, total };
  }

  /**
   * Every sound the filters match. `updated_since` is checked on what the sets found, one sound
   * at a time (a cursor walk asks for it; its page is what costs).
   */
  private find(filters: SearchFilters): Found {
    const found = this.findInSets(filters);
    const { updatedSince } = filters;
    if (updatedSince === undefined) return found;
    const { updated } = this.columns;
    const matches = this.matches;
    let kept = 0;
    // Writing behind the reader is safe when what was found is itself a list in `matches`.
    this.forEachFound(found, (doc) => {
      if (updated[doc]! >= updatedSince) matches[kept++] = doc;
    });
    return { list: matches.subarray(0, kept) };
  }

  /** Visits every sound of what a query found, in increasing position. */
  private forEachFound(found: Found, visit: (doc: number) => void): void {
    if ('list' in found) for (const doc of found.list) visit(doc);
    else if ('bits' in found) forEachBit(found.bits, visit);
    else for (let doc = 0; doc < this.columns.size; doc++) if (this.columns.alive[doc] === 1) visit(doc);
  }

  /**
   * The page of a relevance sort: the matches grouped by score, and only the groups the page
   * reaches read, each in the downloads order; the best score first (ascending: the worst).
   * Grouped the cheapest of three ways: by sets, a few passes over bitmaps of the catalog per word
   * (relevance.ts levelsOf); sound by sound from the words' postings (groupsOfSounds), or from
   * their text when the words' postings are many (short words) or the words more than three.
   */
  private byRelevance(found: Found, total: number, filters: SearchFilters): number[] {
    const { words } = filters;
    const descending = filters.order === 'desc';
    if (total === 0) return [];
    const postings = words.map((word) => wordPostings(this.text, word));
    const bySets =
      words.length <= MOST_WORDS_SCORED_BY_SETS ? (words.length * SET_SCORE_PASSES * this.columns.size) / 32 : Infinity;
    const byPostings = total * postingCount(postings) * POSTING_TEST_COST;
    const byText = total * words.length * TEXT_SCORE_COST;
    const groups: Array<{ found: Found; count: number }> =
      bySets <= byPostings && bySets <= byText
        ? levelsOf(postings, this.foundBits(found), this.pool, descending, filters.page * filters.limit).map(
            ({ bits, count }) => ({ found: { bits, count }, count }),
          )
        : (byPostings <= byText
            ? groupsOfSounds(postings, this.foundList(found), descending)
            : this.groupsOfText(this.foundList(found), words, descending)
          ).map(({ docs }) => ({ found: { list: docs }, count: docs.length }));
    let skip = (filters.page - 1) * filters.limit;
    let remaining = filters.limit;
    const page: number[] = [];
    for (const { found: group, count } of groups) {
      if (remaining === 0) break;
      if (skip >= count) {
        skip -= count;
        continue;
      }
      const end = Math.min(count, skip + remaining);
      page.push(...this.pages.slice(group, 'downloads', descending, skip, end, this.count));
      remaining -= end - skip;
      skip = 0;
    }
    return page;
  }

  /**
   * The matches (`docs`, in increasing position) grouped by score, each scored from its text
   * (relevance.ts relevanceOf); each group a list in increasing position, best first when `descending`.
   */
  private groupsOfText(docs: Uint32Array, words: string[], descending: boolean): ScoredSounds[] {
    const c = this.columns;
    const groups = new ScoreGroups();
    // Tags and description are read out of their columns only for a word the name does not hold.
    let doc = 0;
    const other = { tags: () => c.tags.get(doc), description: () => c.descriptions.get(doc) };
    for (let i = 0; i < docs.length; i++) {
      doc = docs[i]!;
      // Lowered here, not kept lowered: a second copy of every name, for the rare sound scored from its text.
      groups.add(relevanceOf(c.name(doc).toLowerCase(), other, words), doc);
    }
    return groups.list(descending);
  }

  /**
   * What a query found as a list of positions. A list found is handed out as it is: the page
   * reader only writes the scratch list when it is given a bitmap, never while a list is read.
   */
  private foundList(found: Found): Uint32Array {
    if ('list' in found) return found.list;
    const docs: number[] = [];
    this.forEachFound(found, (doc) => docs.push(doc));
    return Uint32Array.from(docs);
  }

  /** What a query found as a bitmap of the pool's size, which may be changed (a copy). */
  private foundBits(found: Found): Uint32Array {
    if ('bits' in found) return this.pool.copyOf(found.bits);
    const bits = this.pool.take();
    this.forEachFound(found, (doc) => {
      bits[doc >>> 5]! |= 1 << (doc & 31);
    });
    return bits;
  }

  /**
   * Every sound the text, tag, category and range filters match: all of them, a bitmap, or a
   * list of positions in increasing order. Text, tags and categories are sets (postings); they are
   * intersected a word of 32 sounds at a time when even the smallest is a dense bitmap, else by
   * walking the smallest and asking the others. A range (duration, onset, loudness) is a bitmap
   * made for the query, a few words of work per 32 sounds of the catalog (duration-index.ts); when
   * the smallest set is walked anyway, each of its sounds' values is compared instead.
   */
  private findInSets(filters: SearchFilters): Found {
    const capacity = this.columns.capacity;
    if (this.count > 2 * this.boundsChosenAt + 1024) this.chooseBounds();
    this.pool.reset(capacity);
    const sets: DocSet[] = [];
    for (const word of filters.words) {
      const docs = this.text.docsFor(word, this.pool);
      if (docs === null) return NOTHING;
      sets.push(docs);
    }
    for (const tag of filters.tags) {
      const posting = this.tags.posting(tag);
      if (posting === undefined) return NOTHING;
      sets.push(posting);
    }
    if (filters.loop !== undefined) sets.push(this.loops[filters.loop ? 1 : 0]);
    if (filters.categories.length > 0) {
      const postings = filters.categories.map((category) => this.categories[CATEGORIES.indexOf(category)]!);
      sets.push(postings.length === 1 ? postings[0]! : unionOf(postings, this.pool));
    }
    const ranges = this.rangesOf(filters);
    if (sets.length === 0 && ranges.length === 0) return ALL;
    sets.sort((a, b) => a.count - b.count);
    if (sets.length > 0 && sets[0]!.count === 0) return NOTHING;
    // Bitmaps are intersected a word of 32 sounds at a time unless the smallest set is so sparse
    // that visiting its sounds one by one is cheaper.
    const words = (capacity + 31) >>> 5;
    const walked = sets.length > 0 && sets[0]!.count * WALK_COST <= (sets.length + RANGE_WORDS * ranges.length) * words;
    if (!walked) {
      for (const { index, min, max } of ranges) sets.push(index.within(min, max, this.pool));
      sets.sort((a, b) => a.count - b.count);
      if (sets[0]!.count === 0) return NOTHING;
      if (sets.length === 1 && sets[0]!.bitmap() !== null) return { bits: sets[0]!.bitmap()!, count: sets[0]!.count };
      if (sets[0]!.count * WALK_COST > sets.length * words && sets.every((set) => set.bitmap() !== null)) {
        return this.intersection(sets);
      }
    }
    const [driver, ...others] = sets;
    // One sparse posting is its own list of matches: it is read, never written, until the next change.
    const sorted = others.length === 0 && ranges.length === 0 && driver instanceof Posting ? driver.sorted() : null;
    if (sorted !== null) return { list: sorted };
    const matches = this.matches;
    let found = 0;
    const inOthers = others.map((set) => set.seeker());
    const checked = walked ? ranges : [];
    driver!.forEach((doc) => {
      for (let i = 0; i < inOthers.length; i++) if (!inOthers[i]!(doc)) return;
      // Not within: NaN (not measured) is within no range.
      for (let i = 0; i < checked.length; i++) {
        const { min, max, values } = checked[i]!;
        const value = values[doc]!;
        if (!(value >= min && value <= max)) return;
      }
      matches[found++] = doc;
    });
    return { list: matches.subarray(0, found) };
  }

  /** The range filters of a search: durations, onsets and loudness within bounds. */
  private rangesOf(filters: SearchFilters): RangeFilter[] {
    const c = this.columns;
    const ranges: RangeFilter[] = [];
    const min = filters.minDuration ?? -Infinity;
    const max = filters.maxDuration ?? Infinity;
    if (min > -Infinity || max < Infinity) ranges.push({ index: this.durations, min, max, values: c.duration });
    // An unmeasured sound fails every onset or loudness bound it is asked about: it is in no range.
    if (filters.maxOnsetMs !== undefined)
      ranges.push({ index: this.onsets, min: -Infinity, max: filters.maxOnsetMs, values: c.onset });
    if (filters.minLufs !== undefined || filters.maxLufs !== undefined) {
      ranges.push({
        index: this.loudness,
        min: filters.minLufs ?? -Infinity,
        max: filters.maxLufs ?? Infinity,
        values: c.lufs,
      });
    }
    return ranges;
  }

  /**
   * The sounds in every one of `sets` (all bitmaps), in a scratch bitmap, counted once made.
   */
  private intersection(sets: DocSet[]): { bits: Uint32Array; count: number } {
    const bits = this.pool.copyOf(sets[0]!.bitmap()!);
    for (let i = 1; i < sets.length; i++) this.pool.andInto(bits, sets[i]!.bitmap()!);
    return { bits, count: this.pool.count(bits) };
  }

  private positionOf(seq: number): number | undefined {
    const stored = seq < this.positions.length ? this.positions[seq]! : 0;
    return stored === 0 ? undefined : stored - 1;
  }

  private add(record: CatalogRecord): number {
    const doc = this.columns.append(record);
    // Row keys only grow, and a first load reads them in order: a quarter more at a time leaves little spare.
    if (record.seq >= this.positions.length)
      this.positions = grown(this.positions, Math.max(1024, Math.ceil(record.seq * 1.25)));
    this.positions[record.seq] = doc + 1;
    this.reserveScratch();
    // From the record's own strings: reading them back out of their columns costs a load time.
    this.index(doc, searchText(record.name, record.description, record.tags), record.name, record.tags);
    // A first load's ranges are made once it is done, from bounds chosen over all its values (loaded).
    if (this.rangesMade) {
      this.durations.add(doc, record.duration);
      this.onsets.add(doc, this.columns.onset[doc]!);
      this.loudness.add(doc, this.columns.lufs[doc]!);
    }
    this.loops[record.loop === null ? 0 : 1].add(doc, this.columns.capacity);
    this.similarity.set(doc, record.descriptors ?? null);
    this.count++;
    if (record.isSample) this.sampleIds = null;
    return doc;
  }

  private update(doc: number, record: CatalogRecord): void {
    const c = this.columns;
    // A sound's download count only goes up: a row read before a download this process already
    // put in (countedDownload) is older news.
    if (record.numDownloads < c.downloads[doc]!) record = { ...record, numDownloads: c.downloads[doc]! };
    const before = {
      text: c.text(doc),
      tags: c.tags.get(doc),
      category: c.category[doc]!,
      downloads: c.downloads[doc]!,
      created: c.created[doc]!,
      duration: c.duration[doc]!,
      name: c.name(doc),
      sample: c.sample[doc]!,
      onset: c.onset[doc]!,
      lufs: c.lufs[doc]!,
      looped: c.looped(doc),
    };
    c.set(doc, record);
    if (c.looped(doc) !== before.looped) {
      this.loops[before.looped ? 1 : 0].remove(doc);
      this.loops[before.looped ? 0 : 1].add(doc, c.capacity);
    }
    this.similarity.set(doc, record.descriptors ?? null);
    for (const [ranges, was, is] of [
      [this.durations, before.duration, c.duration[doc]!],
      [this.onsets, before.onset, c.onset[doc]!],
      [this.loudness, before.lufs, c.lufs[doc]!],
    ] as const) {
      if (Object.is(was, is)) continue;
      ranges.remove(doc, was);
      ranges.add(doc, is);
    }
    // A download changes only a count: the postings stay as they are. What the sound holds now
    // is the record's, not read back out of the columns.
    const text = searchText(record.name, record.description, record.tags);
    if (
      text !== before.text ||
      record.tags.join('\n') !== before.tags.join('\n') ||
      c.category[doc] !== before.category
    ) {
      this.unindex(doc, before);
      this.index(doc, text, record.name, record.tags);
    }
    if (c.downloads[doc] !== before.downloads) this.orders.downloads.move(doc);
    if (c.created[doc] !== before.created) this.orders.created_at.move(doc);
    if (c.duration[doc] !== before.duration) this.orders.duration.move(doc);
    if (record.name !== before.name) this.orders.name.move(doc);
    if (c.sample[doc] !== before.sample || c.sample[doc] === 1) this.sampleIds = null;
  }

  private remove(seq: number): void {
    const doc = this.positionOf(seq);
    if (doc === undefined) return;
    this.positions[seq] = 0;
    const c = this.columns;
    this.unindex(doc, { text: c.text(doc), name: c.name(doc), tags: c.tags.get(doc), category: c.category[doc]! });
    for (const field of SORT_FIELDS) this.orders[field].remove(doc);
    this.bySeq.remove(doc);
    this.columns.byId.remove(doc);
    this.columns.alive[doc] = 0;
    this.durations.remove(doc, c.duration[doc]!);
    this.onsets.remove(doc, c.onset[doc]!);
    this.loudness.remove(doc, c.lufs[doc]!);
    this.loops[c.looped(doc) ? 1 : 0].remove(doc);
    this.similarity.clear(doc);
    this.count--;
    this.sampleIds = null;
  }

  /**
   * Puts a sound in the postings of its text (searchText), tags and category, and of its name's
   * and tags' tokens, in lower case as relevance reads them.
   */
  private index(doc: number, text: string, name: string, tags: string[]): void {
    const c = this.columns;
    this.text.add(doc, text, c.capacity);
    this.text.addField(NAME, doc, name.toLowerCase(), c.capacity);
    this.text.addField(TAGS, doc, tags.join(' ').toLowerCase(), c.capacity);

    if (c.category[doc] !== 0) this.categories[c.category[doc]! - 1]!.add(doc, c.capacity);
    this.tags.add(doc, tags, c.capacity);
  }

  /** Takes a sound out of the postings it was put in with this text, name, tags and category. */
  private unindex(doc: number, indexed: { text: string; name: string; tags: string[]; category: number }): void {
    this.text.remove(doc, indexed.text);
    this.text.removeField(NAME, doc, indexed.name.toLowerCase());
    this.text.removeField(TAGS, doc, indexed.tags.join(' ').toLowerCase());

    if (indexed.category !== 0) this.categories[indexed.category - 1]!.remove(doc);
    this.tags.remove(doc, indexed.tags);
  }

  private rebuildOrders(): void {
    const alive: number[] = [];
    for (let doc = 0; doc < this.columns.size; doc++) if (this.columns.alive[doc] === 1) alive.push(doc);
    const c = this.columns;
    this.bySeq.rebuild(alive, c.capacity);
    // The id order first: the others break their ties with it. Each is sorted from the id order by
    // its value alone, by a stable sort, so sounds of equal value stay in id order.
    c.rebuildById(alive);
    const idOrder = c.byId.order.subarray(0, alive.length);
    for (const [field, values] of [
      ['downloads', c.downloads],
      ['created_at', c.created],
      ['duration', c.duration],
    ] as const) {
      this.orders[field].set(sortByNumber(idOrder, values), c.capacity);
    }
    // Names are read out of their column once for the sort.
    const names = new Array<string>(c.size);
    for (const doc of alive) names[doc] = c.name(doc);
    this.orders.name.set(sortByText(idOrder, names), c.capacity);
    this.chooseBounds();
  }

  /** Chooses the bounds of the duration, onset and loudness ranges from the values the catalog holds now. */
  private chooseBounds(): void {
    const { order, size } = this.orders.duration;
    const c = this.columns;
    this.durations.reset(size, (rank) => c.duration[order[rank]!]!, c.capacity);
    this.durations.addAll(order.subarray(0, size), c.duration);
    const alive = this.bySeq.order.subarray(0, this.bySeq.size);
    for (const [ranges, values] of [
      [this.onsets, c.onset],
      [this.loudness, c.lufs],
    ] as const) {
      const held: number[] = [];
      for (let doc = 0; doc < c.size; doc++)
        if (c.alive[doc] === 1 && !Number.isNaN(values[doc]!)) held.push(values[doc]!);
      const sorted = Float64Array.from(held).sort();
      ranges.reset(sorted.length, (rank) => sorted[rank]!, c.capacity);
      ranges.addAll(alive, values);
    }
    this.boundsChosenAt = this.count;
    this.rangesMade = true;
  }

  private sampleList(): number[] {
    if (this.sampleIds === null) {
      const c = this.columns;
      const samples: number[] = [];
      for (let doc = 0; doc < c.size; doc++) if (c.alive[doc] === 1 && c.sample[doc] === 1) samples.push(doc);
      this.sampleIds = samples.sort((a, b) => c.compareIds(a, b));
    }
    return this.sampleIds;
  }

  private reserveScratch(): void {
    const capacity = this.columns.capacity;
    if (this.matches.length >= capacity) return;
    this.matches = new Uint32Array(capacity);
    this.pages.reserve(capacity);
  }
}
