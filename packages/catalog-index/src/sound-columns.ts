import { CATEGORIES, type CatalogRecord, type Category, type Sound } from './sound.ts';
import { grown } from './posting.ts';
import { byText, SortOrder, sortByText } from './sort-order.ts';
import { SharedStrings, StringListColumn, TextColumn } from './text-column.ts';

/**
 * The sounds of the index, a column per field and a position per sound: numbers in typed arrays,
 * text as UTF-8 bytes outside the heap (text-column.ts), tags and licences as numbers of strings
 * kept once. A page's sounds are made from them when asked. A position is never reused; a
 * removed sound is marked not alive.
 */
export class SoundColumns {
  size = 0;
  capacity = 0;
  readonly ids = new TextColumn();
  /**
   * The sounds in id order: every sort order breaks ties by id, and comparing two places in this
   * order is cheaper than reading two ids out of their column. Kept up to date by the index;
   * a sound's id never changes (its row key and id are fixed when it is stored).
   */
  readonly byId = new SortOrder((a, b) => byText(this.id(a), this.id(b)));
  readonly names = new TextColumn();
  readonly descriptions = new TextColumn();
  readonly tags = new StringListColumn();
  private readonly licenseTexts = new SharedStrings();
  /** The licence's number in licenseTexts, plus one; 0 for none. */
  private licenses = new Uint32Array(0);
  category = new Uint8Array(0);
  alive = new Uint8Array(0);
  sample = new Uint8Array(0);
  duration = new Float64Array(0);
  downloads = new Float64Array(0);
  created = new Float64Array(0);
  onset = new Float64Array(0);
  peak = new Float64Array(0);
  tail = new Float64Array(0);
  lufs = new Float64Array(0);
  truePeak = new Float64Array(0);
  /** A loop's first frame and the frame after its last; NaN for a sound that is no loop. */
  loopStart = new Float64Array(0);
  loopEnd = new Float64Array(0);
  /** The database row key: the catalog's own order, which a cursor walk follows (it never changes). */
  seq = new Float64Array(0);
  /** When the sound's record last changed (ms since the epoch): what `updated_since` reads. */
  updated = new Float64Array(0);

  /** Appends a sound; returns its position. */
  append(record: CatalogRecord): number {
    if (this.size === this.capacity) this.resize(Math.max(1024, this.capacity * 2));
    const doc = this.size++;
    this.set(doc, record);
    return doc;
  }

  set(doc: number, record: CatalogRecord): void {
    this.ids.set(doc, record.id);
    this.names.set(doc, record.name);
    this.descriptions.set(doc, record.description);
    this.tags.set(doc, record.tags);
    this.licenses[doc] = record.license === null ? 0 : this.licenseTexts.numberOf(record.license) + 1;
    this.category[doc] = record.category === null ? 0 : CATEGORIES.indexOf(record.category) + 1;
    this.alive[doc] = 1;
    this.sample[doc] = record.isSample ? 1 : 0;
    this.duration[doc] = record.duration;
    this.downloads[doc] = record.numDownloads;
    this.created[doc] = Date.parse(record.createdAt);
    this.onset[doc] = record.timing.onset_ms ?? Number.NaN;
    this.peak[doc] = record.timing.peak_ms ?? Number.NaN;
    this.tail[doc] = record.timing.tail_ms ?? Number.NaN;
    this.lufs[doc] = record.loudness.integrated_lufs ?? Number.NaN;
    this.truePeak[doc] = record.loudness.true_peak_db ?? Number.NaN;
    this.loopStart[doc] = record.loop?.startSample ?? Number.NaN;
    this.loopEnd[doc] = record.loop?.endSample ?? Number.NaN;
    this.seq[doc] = record.seq;
    this.updated[doc] = Date.parse(record.updatedAt ?? record.createdAt);
  }

  /** The sound at a position, as services hand it out. */
  sound(doc: number): Sound {
    const category = this.category[doc]!;
    return {
      id: this.id(doc),
      name: this.name(doc),
      description: this.descriptions.get(doc),
      tags: this.tags.get(doc),
      category: category === 0 ? null : (CATEGORIES[category - 1] as Category),
      license: this.license(doc),
      duration: this.duration[doc]!,
      timing: {
        onset_ms: orNull(this.onset[doc]!),
        peak_ms: orNull(this.peak[doc]!),
        tail_ms: orNull(this.tail[doc]!),
      },
      loudness: { integrated_lufs: orNull(this.lufs[doc]!), true_peak_db: orNull(this.truePeak[doc]!) },
      numDownloads: this.downloads[doc]!,
      isSample: this.sample[doc] === 1,
      loop: this.looped(doc) ? { startSample: this.loopStart[doc]!, endSample: this.loopEnd[doc]! } : null,
    };
  }

  /** Whether the sound at a position is a loop. */
  looped(doc: number): boolean {
    return !Number.isNaN(this.loopStart[doc]!);
  }

  id(doc: number): string {
    return this.ids.get(doc)!;
  }

  name(doc: number): string {
    return this.names.get(doc)!;
  }

  license(doc: number): string | null {
    const number = this.licenses[doc]!;
    return number === 0 ? null : this.licenseTexts.texts[number - 1]!;
  }

  /** Lower-case name, description and tags, separated by spaces: what `q` words are found in. */
  text(doc: number): string {
    return searchText(this.name(doc), this.descriptions.get(doc), this.tags.get(doc));
  }

  /** Ties in every sort order are broken by id, in the direction of the sort. */
  compareIds(a: number, b: number): number {
    return this.byId.rank[a]! - this.byId.rank[b]!;
  }

  /** Sorts these positions into byId from scratch, each id read out of its column once. */
  rebuildById(positions: number[]): void {
    const ids = new Array<string>(this.size);
    for (const doc of positions) ids[doc] = this.id(doc);
    this.byId.set(sortByText(positions, ids), this.capacity);
  }

  /**
   * Room for `capacity` sounds, made at once before a first load that knows the catalog's size:
   * growing by doubling left up to half the columns spare, and held both copies while it copied.
   */
  reserve(capacity: number): void {
    if (capacity <= this.capacity) return;
    this.resize(capacity);
  }

  /** Gives back the spare room of the text columns once a first load is in. */
  trim(): void {
    this.ids.trim();
    this.names.trim();
    this.descriptions.trim();
    this.tags.trim();
  }

  private resize(capacity: number): void {
    this.capacity = capacity;
    this.ids.reserve(capacity);
    this.names.reserve(capacity);
    this.descriptions.reserve(capacity);
    this.tags.reserve(capacity);
    this.licenses = grown(this.licenses, capacity);
    this.category = grown(this.category, capacity);
    this.alive = grown(this.alive, capacity);
    this.sample = grown(this.sample, capacity);
    this.duration = grown(this.duration, capacity);
    this.downloads = grown(this.downloads, capacity);
    this.created = grown(this.created, capacity);
    this.onset = grown(this.onset, capacity);
    this.peak = grown(this.peak, capacity);
    this.tail = grown(this.tail, capacity);
    this.lufs = grown(this.lufs, capacity);
    this.truePeak = grown(this.truePeak, capacity);
    this.loopStart = grown(this.loopStart, capacity);
    this.loopEnd = grown(this.loopEnd, capacity);
    this.seq = grown(this.seq, capacity);
    this.updated = grown(this.updated, capacity);
  }
}

function orNull(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/** Lower-case name, description and tags, separated by spaces: what `q` words are found in. */
export function searchText(name: string, description: string | null, tags: string[]): string {
  return [name, description ?? '', ...tags].join(' ').toLowerCase();
}
