import type { Category, Sound } from '../sound.ts';
import { CATEGORIES } from '../sound.ts';
import type { CatalogRecord } from '../change-feed.ts';
import { grown } from './posting.ts';

/**
 * The sounds of the index, a column per field and a position per sound: numbers in typed arrays,
 * text in plain arrays (a page's sounds are made from them when asked). Repeated strings (tags,
 * licences) are kept once. A position is never reused; a removed sound is marked not alive.
 */
export class SoundColumns {
  size = 0;
  capacity = 0;
  ids: string[] = [];
  names: string[] = [];
  /** Names in lower case, for scoring relevance without lowering them per query. */
  lowerNames: string[] = [];
  descriptions: Array<string | null> = [];
  tags: string[][] = [];
  licenses: Array<string | null> = [];
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
  private readonly strings = new Map<string, string>();

  /** Appends a sound; returns its position. */
  append(record: CatalogRecord): number {
    if (this.size === this.capacity) this.resize(Math.max(1024, this.capacity * 2));
    const doc = this.size++;
    this.set(doc, record);
    return doc;
  }

  set(doc: number, record: CatalogRecord): void {
    this.ids[doc] = record.id;
    this.names[doc] = record.name;
    this.lowerNames[doc] = record.name.toLowerCase();
    this.descriptions[doc] = record.description;
    this.tags[doc] = record.tags.map((tag) => this.shared(tag));
    this.licenses[doc] = record.license === null ? null : this.shared(record.license);
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
  }

  /** The sound at a position, as services hand it out. */
  sound(doc: number): Sound {
    const category = this.category[doc]!;
    return {
      id: this.ids[doc]!,
      name: this.names[doc]!,
      description: this.descriptions[doc]!,
      tags: this.tags[doc]!,
      category: category === 0 ? null : (CATEGORIES[category - 1] as Category),
      license: this.licenses[doc]!,
      duration: this.duration[doc]!,
      timing: { onset_ms: orNull(this.onset[doc]!), peak_ms: orNull(this.peak[doc]!), tail_ms: orNull(this.tail[doc]!) },
      loudness: { integrated_lufs: orNull(this.lufs[doc]!), true_peak_db: orNull(this.truePeak[doc]!) },
      numDownloads: this.downloads[doc]!,
      isSample: this.sample[doc] === 1,
    };
  }

  /** Lower-case name, description and tags, separated by spaces: what `q` words are found in. */
  text(doc: number): string {
    return [this.names[doc], this.descriptions[doc] ?? '', ...this.tags[doc]!].join(' ').toLowerCase();
  }

  /** Ties in every sort order are broken by id, in the direction of the sort. */
  compareIds(a: number, b: number): number {
    return this.ids[a]! < this.ids[b]! ? -1 : 1;
  }

  private shared(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  /**
   * Room for `capacity` sounds, made at once before a first load that knows the catalog's size:
   * growing by doubling left up to half the columns spare, and held both copies while it copied.
   */
  reserve(capacity: number): void {
    if (capacity <= this.capacity) return;
    if (this.size === 0) {
      // The text columns too: grown one sound at a time they are copied again and again.
      this.ids = new Array<string>(capacity);
      this.names = new Array<string>(capacity);
      this.lowerNames = new Array<string>(capacity);
      this.descriptions = new Array<string | null>(capacity);
      this.tags = new Array<string[]>(capacity);
      this.licenses = new Array<string | null>(capacity);
    }
    this.resize(capacity);
  }

  private resize(capacity: number): void {
    this.capacity = capacity;
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
  }
}

function orNull(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}
