import type { SqlDialect } from '../db/dialects/types.ts';
import type { Db } from '../db/index.ts';
import { ChangeLogFrontier } from './change-log-frontier.ts';
import type { CatalogChangeFeed, CatalogChanges, CatalogRecord, ChangeList } from './change-feed.ts';
import { DOWNLOADS_COLUMN, SOUND_COLUMNS, soundOf, type SoundRow } from './rows.ts';

/**
 * Rows read per query on a first load. Small enough that a page's rows and records die young:
 * larger pages outlived the young generation (seen with --trace-gc), and that garbage filled the
 * heap's old space while a large catalog loaded.
 */
const PAGE_ROWS = 1000;
/** Log rows kept behind the newest: a reader further behind than this loads everything again. */
const KEEP_CHANGES = 100_000;

export interface ChangeFeedOptions {
  keepChanges?: number;
}
/** How often the log is asked whether anything is new (bounds how late another process's change shows). */
const POLL_MS = 100;

const PAGE_COLUMNS = ['seq', 'descriptors', 'updated_at', ...SOUND_COLUMNS] as const;
const RECORD_COLUMNS = [...PAGE_COLUMNS, DOWNLOADS_COLUMN] as const;

/**
 * The change feed over the `catalog_changes` log that triggers fill on every write to `sounds`
 * (db/dialects); download counts are not in `sounds` and make no change. Every reader reads the
 * log up to its frontier only (catalog/change-log-frontier.ts), below which no number is still to
 * come, so a reader that remembers the last number it read misses nothing. Polled: one indexed
 * read past the frontier every POLL_MS, whoever wrote.
 */
export class DatabaseChangeFeed implements CatalogChangeFeed {
  private readsSincePrune = 0;
  private readonly keepChanges: number;
  private readonly frontier: ChangeLogFrontier;

  constructor(
    private readonly db: Db,
    dialect: SqlDialect,
    options: ChangeFeedOptions = {},
  ) {
    this.keepChanges = options.keepChanges ?? KEEP_CHANGES;
    this.frontier = new ChangeLogFrontier(db, dialect.changeLogWriters);
  }

  async loadAll(onPage: (records: CatalogRecord[]) => void): Promise<number> {
    // The cursor is taken first: a change made while the pages are read is read again after.
    const cursor = await this.frontier.now();
    for (let after = 0; ; ) {
      const rows = await this.db
        .selectFrom('sounds')
        .select(PAGE_COLUMNS)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(PAGE_ROWS)
        .execute();
      if (rows.length === 0) return cursor;
      const last = rows[rows.length - 1]!.seq;
      // The page's download counts by a range of the counts' key, rather than a join that looks
      // each row's count up (a fifth of a large catalog's reading time, in SQLite).
      const counts = await this.db
        .selectFrom('sound_downloads')
        .select(['sound_seq', 'count'])
        .where('sound_seq', '>', after)
        .where('sound_seq', '<=', last)
        .orderBy('sound_seq')
        .execute();
      let next = 0;
      const records = rows.map((row) => {
        while (next < counts.length && counts[next]!.sound_seq < row.seq) next++;
        const count = next < counts.length && counts[next]!.sound_seq === row.seq ? counts[next]!.count : 0;
        return toRecord(Object.assign(row, { num_downloads: count }));
      });
      onPage(records);
      after = last;
    }
  }

  async changesSince(cursor: number, limit: number): Promise<CatalogChanges | 'reload'> {
    const until = await this.frontier.now();
    const log = await this.db
      .selectFrom('catalog_changes')
      .select(['seq', 'sound_seq'])
      .where('seq', '>', cursor)
      .where('seq', '<=', until)
      .orderBy('seq')
      .limit(limit)
      .execute();
    if (log.length === 0) return { changed: [], removed: [], cursor };
    if (log[0]!.seq > cursor + 1 && (await this.pruned(cursor))) return 'reload';
    const seqs = [...new Set(log.map((row) => row.sound_seq))];
    const rows = await this.sounds().select(RECORD_COLUMNS).where('seq', 'in', seqs).execute();
    const found = new Set(rows.map((row) => row.seq));
    const next = log[log.length - 1]!.seq;
    this.readsSincePrune += log.length;
    if (this.readsSincePrune > this.keepChanges / 10) await this.prune(next);
    return { changed: rows.map(toRecord), removed: seqs.filter((seq) => !found.has(seq)), cursor: next };
  }

  async listChanges(after: number, limit: number): Promise<ChangeList> {
    const until = await this.frontier.now();
    const log = await this.db
      .selectFrom('catalog_changes')
      .select(['seq', 'sound_id', 'kind', 'changed_at'])
      .where('seq', '>', after)
      .where('seq', '<=', until)
      .orderBy('seq')
      .limit(limit)
      .execute();
    if (log.length === 0) return { changes: [], next: after };
    // A gap before the first row is either numbers never committed or rows pruned; only the log's
    // oldest row tells which. Rows written before migration 011 do not say what happened.
    const incomplete = (log[0]!.seq > after + 1 && (await this.pruned(after))) || log.some((row) => row.kind === null);
    if (incomplete) return { gone: true, newest: until };
    return {
      changes: log.map((row) => ({ id: row.sound_id!, change: row.kind!, at: row.changed_at! })),
      next: log[log.length - 1]!.seq,
    };
  }

  watch(wake: () => void): () => void {
    let seen = -1;
    let asking = false;
    const timer = setInterval(() => {
      if (asking) return;
      asking = true;
      this.frontier
        .now()
        .then(
          (newest) => {
            if (newest !== seen) wake();
            seen = newest;
          },
          () => {
            // Read again after a failure even when the newest number looks the same: the reader's
            // read may have failed with it, and it should learn that it is current.
            seen = -1;
            wake();
          },
        )
        .finally(() => (asking = false));
    }, POLL_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** The sounds with their download counts (catalog/download-counts.ts). */
  private sounds() {
    return this.db.selectFrom('sounds').leftJoin('sound_downloads', 'sound_downloads.sound_seq', 'sounds.seq');
  }

  /** True when the log's oldest row is past `cursor + 1`: rows this reader has not read were pruned. */
  private async pruned(cursor: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('catalog_changes')
      .select((eb) => eb.fn.min('seq').as('seq'))
      .executeTakeFirst();
    return Number(row?.seq ?? 0) > cursor + 1;
  }

  private async prune(newest: number): Promise<void> {
    this.readsSincePrune = 0;
    const upto = newest - this.keepChanges;
    // Said before the rows go: the numbers are at or below this reader's frontier, all settled.
    await this.db.updateTable('catalog_changes_pruned').set({ upto }).where('upto', '<', upto).execute();
    await this.db.deleteFrom('catalog_changes').where('seq', '<=', upto).execute();
  }
}

/**
 * The record of a row. The sound's object is given the record's fields rather than spread into a
 * new object: records made by spreading outlived the young generation (measured with --trace-gc:
 * about 1.4 KB a row collected from the old space), and at a million sounds that garbage held
 * the heap at its limit while the catalog loaded.
 */
function toRecord(row: SoundRow & { seq: number; descriptors: string | null; updated_at: string }): CatalogRecord {
  const record = soundOf(row) as CatalogRecord;
  record.seq = row.seq;
  record.createdAt = row.created_at;
  record.updatedAt = row.updated_at;
  record.descriptors = parseDescriptors(row.descriptors);
  return record;
}

/** A stored descriptor array, or null when absent or not an array of numbers (it is then measured again). */
function parseDescriptors(text: string | null): number[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((item) => typeof item === 'number') ? value : null;
  } catch {
    return null;
  }
}
