import type { CatalogRecord } from '../change-feed.ts';
import { CATEGORIES, SORT_FIELDS, type Page, type SampleFilters, type SearchFilters, type Sound, type SortField } from '../sound.ts';
import { Posting } from './posting.ts';
import { SortOrder } from './sort-order.ts';
import { SoundColumns } from './sound-columns.ts';
import { TextIndex } from './text-index.ts';

/** More new sounds than this in one batch are sorted in from scratch rather than one by one. */
const REBUILD_BATCH = 256;

/**
 * The catalog in memory, answering every list the API has (search, the sample list, popular)
 * without the database: postings per text fragment and per tag find the matching sounds, which
 * are counted for the total; orders kept sorted per sort field give the page. The database stays
 * the source of truth: the catalog service fills this from it and applies every change it reports.
 */
export class SearchIndex {
  private readonly columns = new SoundColumns();
  private readonly text = new TextIndex();
  private readonly tags = new Map<string, Posting>();
  private readonly orders: Record<SortField, SortOrder>;
  /** Database row key to position. */
  private positions = new Map<number, number>();
  private sampleIds: number[] | null = null;
  /** Scratch space for one query's matches and marks (queries run one at a time). */
  private matches = new Uint32Array(0);
  private marks = new Uint8Array(0);
  private ranks = new Uint32Array(0);
  count = 0;

  constructor() {
    const c = this.columns;
    const byNumber = (values: () => Float64Array) => (a: number, b: number) => values()[a]! - values()[b]! || c.compareIds(a, b);
    this.orders = {
      downloads: new SortOrder(byNumber(() => c.downloads)),
      created_at: new SortOrder(byNumber(() => c.created)),
      duration: new SortOrder(byNumber(() => c.duration)),
      name: new SortOrder((a, b) => (c.names[a]! < c.names[b]! ? -1 : c.names[a]! > c.names[b]! ? 1 : c.compareIds(a, b))),
    };
  }

  /** Adds the sounds of a first load; `loaded()` then sorts them once. */
  load(records: CatalogRecord[]): void {
    for (const record of records) if (!this.positions.has(record.seq)) this.add(record);
  }

  loaded(): void {
    this.rebuildOrders();
  }

  /** Applies rows as they are now (new or changed) and removals, by database row key. */
  apply(records: CatalogRecord[], removed: number[] = []): void {
    const added: number[] = [];
    for (const seq of removed) this.remove(seq);
    for (const record of records) {
      const known = this.positions.get(record.seq);
      if (known === undefined) added.push(this.add(record));
      else this.update(known, record);
    }
    if (added.length > REBUILD_BATCH) this.rebuildOrders();
    else for (const doc of added) for (const field of SORT_FIELDS) this.orders[field].insert(doc);
  }

  search(filters: SearchFilters): Page<Sound> {
    const found = this.find(filters);
    const docs = this.page(found, filters.sort, filters.order === 'desc', (filters.page - 1) * filters.limit, filters.limit);
    return { items: docs.map((doc) => this.columns.sound(doc)), total: found.length };
  }

  /** Sample sounds by id; `q` words in the name or description, any of the tags. */
  samples(filters: SampleFilters): Page<Sound> {
    const c = this.columns;
    const items: Sound[] = [];
    let total = 0;
    for (const doc of this.sampleList()) {
      if (filters.tags.length > 0 && !c.tags[doc]!.some((tag) => filters.tags.includes(tag))) continue;
      if (filters.words.length > 0) {
        const text = `${c.names[doc]} ${c.descriptions[doc] ?? ''}`.toLowerCase();
        if (!filters.words.every((word) => text.includes(word))) continue;
      }
      if (total++ < filters.limit) items.push(c.sound(doc));
    }
    return { items, total };
  }

  /** The most downloaded sounds, ties by id, highest first. */
  popular(limit: number): Page<Sound> {
    const { order, size } = this.orders.downloads;
    const items: Sound[] = [];
    for (let i = size - 1; i >= 0 && items.length < limit; i--) items.push(this.columns.sound(order[i]!));
    return { items, total: this.count };
  }

  get bytes(): number {
    return this.columns.bytes + this.text.bytes + this.columns.capacity * 4 * 2 * SORT_FIELDS.length;
  }

  /** The positions of every sound the filters match, in increasing order. */
  private find(filters: SearchFilters): Uint32Array {
    const postings: Posting[] = [];
    const verify: string[] = [];
    for (const word of filters.words) {
      const found = this.text.postingsFor(word);
      if (found === null) return this.matches.subarray(0, 0);
      postings.push(...found.postings);
      if (!found.exact) verify.push(word);
    }
    for (const tag of filters.tags) {
      const posting = this.tags.get(tag);
      if (posting === undefined) return this.matches.subarray(0, 0);
      postings.push(posting);
    }
    let categories = 0;
    for (const category of filters.categories) categories |= 1 << (CATEGORIES.indexOf(category) + 1);
    const min = filters.minDuration ?? -Infinity;
    const max = filters.maxDuration ?? Infinity;

    postings.sort((a, b) => a.count - b.count);
    const [driver, ...others] = postings;
    const c = this.columns;
    const matches = this.matches;
    let found = 0;
    const consider = (doc: number) => {
      if (c.alive[doc] === 0) return;
      if (categories !== 0 && (categories & (1 << c.category[doc]!)) === 0) return;
      const duration = c.duration[doc]!;
      if (duration < min || duration > max) return;
      for (const posting of others) if (!posting.has(doc)) return;
      for (const word of verify) if (!c.texts[doc]!.includes(word)) return;
      matches[found++] = doc;
    };
    if (driver !== undefined) driver.forEach(consider);
    else for (let doc = 0; doc < c.size; doc++) consider(doc);
    return matches.subarray(0, found);
  }

  /**
   * The page of `found` in a sort order. Two ways, whichever reads fewer sounds: walk the order
   * from its start until the page is filled (cheap when most sounds match), or sort the matches'
   * places in the order (cheap when few do).
   */
  private page(found: Uint32Array, field: SortField, descending: boolean, offset: number, limit: number): number[] {
    const { order, rank, size } = this.orders[field];
    const wanted = Math.min(offset + limit, found.length);
    if (offset >= wanted) return [];
    const docs: number[] = [];
    const at = (i: number) => order[descending ? size - 1 - i : i]!;
    if (found.length === this.count) {
      for (let i = offset; i < wanted; i++) docs.push(at(i));
      return docs;
    }
    const walkCost = (wanted * size) / found.length;
    const sortCost = found.length * Math.log2(found.length + 1) * 4;
    if (walkCost <= sortCost) {
      const marks = this.marks;
      for (const doc of found) marks[doc] = 1;
      for (let i = 0, seen = 0; seen < wanted; i++) {
        const doc = at(i);
        if (marks[doc] === 0) continue;
        if (seen++ >= offset) docs.push(doc);
      }
      for (const doc of found) marks[doc] = 0;
      return docs;
    }
    const places = this.ranks.subarray(0, found.length);
    for (let i = 0; i < found.length; i++) places[i] = rank[found[i]!]!;
    places.sort();
    for (let i = offset; i < wanted; i++) docs.push(order[places[descending ? found.length - 1 - i : i]!]!);
    return docs;
  }

  private add(record: CatalogRecord): number {
    const doc = this.columns.append(record);
    this.positions.set(record.seq, doc);
    this.reserveScratch();
    this.index(doc);
    this.count++;
    if (record.isSample) this.sampleIds = null;
    return doc;
  }

  private update(doc: number, record: CatalogRecord): void {
    const c = this.columns;
    const before = { text: c.texts[doc]!, tags: c.tags[doc]!, downloads: c.downloads[doc]!, created: c.created[doc]!, duration: c.duration[doc]!, name: c.names[doc]!, sample: c.sample[doc]! };
    const textChanged = before.text !== record.searchText || before.tags.join('\n') !== record.tags.join('\n');
    if (textChanged) this.unindex(doc);
    c.set(doc, record);
    if (textChanged) this.index(doc);
    if (c.downloads[doc] !== before.downloads) this.orders.downloads.move(doc);
    if (c.created[doc] !== before.created) this.orders.created_at.move(doc);
    if (c.duration[doc] !== before.duration) this.orders.duration.move(doc);
    if (c.names[doc] !== before.name) this.orders.name.move(doc);
    if (c.sample[doc] !== before.sample || c.sample[doc] === 1) this.sampleIds = null;
  }

  private remove(seq: number): void {
    const doc = this.positions.get(seq);
    if (doc === undefined) return;
    this.positions.delete(seq);
    this.unindex(doc);
    for (const field of SORT_FIELDS) this.orders[field].remove(doc);
    this.columns.alive[doc] = 0;
    this.count--;
    this.sampleIds = null;
  }

  private index(doc: number): void {
    const c = this.columns;
    this.text.add(doc, c.texts[doc]!, c.capacity);
    for (const tag of c.tags[doc]!) {
      let posting = this.tags.get(tag);
      if (posting === undefined) this.tags.set(tag, (posting = new Posting()));
      posting.add(doc, c.capacity);
    }
  }

  private unindex(doc: number): void {
    const c = this.columns;
    this.text.remove(doc, c.texts[doc]!);
    for (const tag of c.tags[doc]!) {
      const posting = this.tags.get(tag);
      posting?.remove(doc);
      if (posting?.count === 0) this.tags.delete(tag);
    }
  }

  private rebuildOrders(): void {
    const alive: number[] = [];
    for (let doc = 0; doc < this.columns.size; doc++) if (this.columns.alive[doc] === 1) alive.push(doc);
    for (const field of SORT_FIELDS) this.orders[field].rebuild([...alive], this.columns.capacity);
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
    this.marks = new Uint8Array(capacity);
    this.ranks = new Uint32Array(capacity);
  }
}
