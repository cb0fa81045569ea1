import { SearchIndex } from '@sound-catalog/catalog-index';
import { DESCRIPTOR_WEIGHTS } from '../audio/analyze/descriptors.ts';
import type { CatalogChangeFeed, ChangeList } from './change-feed.ts';
import type { CountsCursor, DownloadCounts } from './download-counts.ts';
import type { Page, SampleFilters, SearchFilters, SearchPage, Sound, StoredSound } from './sound.ts';
import type { CatalogStore } from './store.ts';
import { resamplePeaks, type Peak } from './waveform.ts';

/** Changes read per query while following the feed, and download counts while following those. */
const CHANGES_PER_READ = 10_000;
/** How often the download counts other processes committed are read: popular is exact this soon after. */
const COUNTS_POLL_MS = 100;

/**
 * The catalog, as routes, tools, pages and commands use it. Lists (search, samples, popular) are
 * answered by the search index in memory; one sound, its waveform and every write go to the
 * database. The index is built on first use (or by `start`, which the server calls so that its
 * first search is fast) and then follows the catalog change feed: this process's own writes are
 * in it before the write returns, any other process's within the feed's polling interval.
 * A download is committed to `sound_downloads` before `countDownload` returns
 * (download-counts.ts); the index takes this process's counts at once and other processes' within
 * COUNTS_POLL_MS.
 */
export class CatalogService {
  private index: SearchIndex | null = null;
  private building: Promise<SearchIndex> | null = null;
  private cursor = 0;
  private syncing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private stopWatching: (() => void) | null = null;
  /**
   * When (performance.now()) the oldest change this index was told of and has not applied yet came;
   * null when none waits.
   */
  private waitingSince: number | null = null;
  private countsCursor: CountsCursor = { version: 0, soundSeq: 0, running: [] };
  private readingCounts: Promise<void> | null = null;
  private stopCounting: (() => void) | null = null;

  constructor(
    private readonly store: CatalogStore,
    private readonly feed: CatalogChangeFeed,
    private readonly downloads: DownloadCounts,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Builds the index now; returns how many sounds it holds, how many have descriptors, and how long it took. */
  async start(): Promise<{ sounds: number; described: number; ms: number }> {
    const started = performance.now();
    const index = await this.ready();
    return { sounds: index.count, described: index.described, ms: Math.round(performance.now() - started) };
  }

  async search(filters: SearchFilters): Promise<SearchPage> {
    return (this.index ?? (await this.ready())).search(filters);
  }

  /**
   * What mirrors follow: the catalog's changes after a log number (0: from the log's start), in
   * the order they were made. Read from the database, not the index: every instance answers alike.
   */
  changes(after: number, limit: number): Promise<ChangeList> {
    return this.feed.listChanges(after, limit);
  }

  async samples(filters: SampleFilters): Promise<Page<Sound>> {
    return (this.index ?? (await this.ready())).samples(filters);
  }

  async findById(id: string): Promise<StoredSound | null> {
    return this.store.findById(id);
  }

  async findSampleById(id: string): Promise<StoredSound | null> {
    const sound = await this.findById(id);
    return sound?.isSample ? sound : null;
  }

  /**
   * The sound's waveform as `points` [min, max] columns, or as measured when `points` is not
   * given (none when never measured); null when no sound has the id.
   */
  async waveform(id: string, points?: number): Promise<Peak[] | null> {
    const peaks = await this.store.waveform(id);
    return peaks && (points === undefined ? peaks : resamplePeaks(peaks, points));
  }

  /**
   * The sounds that sound most like the sound `id`, most similar first (never the sound itself),
   * or null when no sound has the id. A sound this instance's index has not seen yet (written
   * elsewhere in the last moment) is waited for with one read of the feed.
   */
  async similar(id: string, limit: number): Promise<Array<{ sound: Sound; similarity: number }> | null> {
    const seq = await this.store.seqOf(id);
    if (seq === null) return null;
    const index = this.index ?? (await this.ready());
    const found = index.similar(seq, limit);
    if (found !== null) return found;
    await this.changed();
    return index.similar(seq, limit) ?? [];
  }

  /**
   * Counts one download; returns the sound's id and name, or null when no sound has the id. The
   * count is committed before this returns, and this instance's downloads order shows it; other
   * instances read it within COUNTS_POLL_MS.
   */
  async countDownload(id: string): Promise<{ id: string; name: string } | null> {
    const sound = await this.store.downloadTarget(id);
    if (sound === null) return null;
    const count = await this.downloads.add(sound.seq);
    if (count === null) return null;
    this.index?.countedDownload(sound.seq, count);
    return { id: sound.id, name: sound.name };
  }

  async setSamples(ids: string[]): Promise<{ samples: number; unknown: string[] }> {
    const result = await this.store.setSamples(ids);
    await this.changed();
    return result;
  }

  size(): Promise<number> {
    return this.store.size();
  }

  /**
   * What metrics publish (metrics/): the sounds in the index (null before it is built), and how
   * long the oldest change it has been told of (by the feed's poll or by a write of this process)
   * has waited to be applied: 0 when it is current, growing while reads of the feed fail.
   */
  indexState(): { sounds: number | null; waitingMs: number } {
    return {
      sounds: this.index?.count ?? null,
      waitingMs: this.waitingSince === null ? 0 : performance.now() - this.waitingSince,
    };
  }

  /**
   * Reads the feed now. Called after every write this process makes; resolves once a read that
   * started after the call has been applied (reads in flight are shared, never run twice at once).
   * Never rejects: the write it follows has happened, so a failed read is reported and the next
   * poll of the feed catches up.
   */
  changed(): Promise<void> {
    if (this.index === null) return Promise.resolve();
    this.waitingSince ??= performance.now();
    if (this.syncing === null) {
      this.syncing = this.sync()
        .catch(this.onError)
        .finally(() => (this.syncing = null));
      return this.syncing;
    }
    this.queued ??= this.syncing.then(() => {
      this.queued = null;
      return this.changed();
    });
    return this.queued;
  }

  /** Stops following the feed and the counts; resolves once every download counted is committed. */
  async close(): Promise<void> {
    this.stopWatching?.();
    this.stopWatching = null;
    this.stopCounting?.();
    this.stopCounting = null;
    await this.downloads.settled();
    await this.readingCounts;
  }

  private ready(): Promise<SearchIndex> {
    this.building ??= this.build().then(
      (index) => {
        this.index = index;
        this.stopWatching = this.feed.watch(() => void this.changed());
        this.stopCounting = this.followCounts();
        return index;
      },
      (error: unknown) => {
        this.building = null;
        throw error;
      },
    );
    return this.building;
  }

  private async build(): Promise<SearchIndex> {
    // Where counts are followed from is taken first: a count committed while the rows load is
    // read again after (the index keeps the larger of two counts).
    this.countsCursor = await this.downloads.cursorNow();
    const index = new SearchIndex({ descriptorWeights: DESCRIPTOR_WEIGHTS });
    index.expect(await this.store.size());
    this.cursor = await this.feed.loadAll((records) => index.load(records));
    index.loaded();
    return index;
  }

  private async sync(): Promise<void> {
    for (;;) {
      const changes = await this.feed.changesSince(this.cursor, CHANGES_PER_READ);
      if (changes === 'reload') {
        this.index = await this.build();
        this.waitingSince = null;
        return;
      }
      if (changes.cursor === this.cursor) {
        this.waitingSince = null;
        return;
      }
      this.index!.apply(changes.changed, changes.removed);
      this.cursor = changes.cursor;
    }
  }

  /** Reads the counts other processes commit, every COUNTS_POLL_MS; returns a function that stops it. */
  private followCounts(): () => void {
    const timer = setInterval(() => {
      this.readingCounts ??= this.readCounts()
        .catch(this.onError)
        .finally(() => (this.readingCounts = null));
    }, COUNTS_POLL_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async readCounts(): Promise<void> {
    for (;;) {
      const { counts, cursor, more } = await this.downloads.changedSince(this.countsCursor, CHANGES_PER_READ);
      for (const { soundSeq, count } of counts) this.index?.countedDownload(soundSeq, count);
      this.countsCursor = cursor;
      if (!more) return;
    }
  }
}
