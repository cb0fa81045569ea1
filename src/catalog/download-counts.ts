import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { SqlDialect } from '../db/dialects/types.ts';

/** Past every sound's row key (a 32-bit integer on PostgreSQL): a cursor at it has read all of its version. */
const PAST_EVERY_SOUND = 2 ** 31 - 1;
/** Sounds per statement: two parameters each, far under SQLite's and PostgreSQL's limits. */
export const SOUNDS_PER_STATEMENT = 1000;

/** Where a reader of changed counts has got to: every count up to this version and sound is read. */
export interface CountsCursor {
  version: number;
  soundSeq: number;
}

/** A sound's all-time count, by its row key. */
export interface SoundCount {
  soundSeq: number;
  count: number;
}

/** The downloads of one event-loop turn, written in one transaction. */
interface Batch {
  additions: Map<number, number>;
  /** Each sound's count as the commit left it; a sound missing here was removed meanwhile. */
  totals: Map<number, number>;
  committed: Promise<void>;
}

/**
 * Every sound's download count, in `sound_downloads`: the durable record of what was downloaded.
 * A download is committed before it is answered, with the other downloads of the same
 * event-loop turn in one transaction (as the usage history commits the quota), so a process
 * killed outright has written every download it answered. The table is not `sounds`: a count is
 * no catalog change and never reaches the change log mirrors read.
 *
 * Each commit gives the rows it changes a version (db/dialects); other instances read the rows
 * whose version passed the last they read, through `changedSince`.
 */
export class DownloadCounts {
  private batch: Batch | null = null;
  /** Commits run one after another: a turn's batch waits for the one before. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db, private readonly dialect: SqlDialect) {}

  /**
   * Counts `times` downloads of the sound; resolves once they are committed, with the sound's
   * all-time count as that commit left it, or null when the sound was removed meanwhile (nothing
   * counted). Rejects when the commit fails: then nothing of its batch was counted.
   */
  async add(soundSeq: number, times = 1): Promise<number | null> {
    const batch = (this.batch ??= this.open());
    batch.additions.set(soundSeq, (batch.additions.get(soundSeq) ?? 0) + times);
    await batch.committed;
    return batch.totals.get(soundSeq) ?? null;
  }

  /** Where a reader starts that has every count committed so far (read before the counts are loaded). */
  async cursorNow(): Promise<CountsCursor> {
    const row = await this.db.selectFrom('sound_downloads').select((eb) => eb.fn.max('version').as('version'))
      .where('version', '<', this.dialect.settledDownloadsVersion).executeTakeFirst();
    return { version: Number(row?.version ?? 0), soundSeq: PAST_EVERY_SOUND };
  }

  /**
   * The counts changed after `cursor`, at most `limit` of them in version order, and the cursor
   * after the settled ones among them. A count whose version is not settled yet (a transaction
   * with an older version is still running) is returned too, and read again until it is settled:
   * counts only grow, so applying one early is harmless, while moving the cursor past it could
   * skip the older transaction's counts.
   */
  async changedSince(cursor: CountsCursor, limit: number): Promise<{ counts: SoundCount[]; cursor: CountsCursor }> {
    const rows = await this.db.selectFrom('sound_downloads')
      .select(['sound_seq', 'count', 'version', this.dialect.settledDownloadsVersion.as('settled')])
      .where((eb) => eb.or([
        eb('version', '>', cursor.version),
        eb.and([eb('version', '=', cursor.version), eb('sound_seq', '>', cursor.soundSeq)]),
      ]))
      .orderBy('version').orderBy('sound_seq').limit(limit).execute();
    let next = cursor;
    for (const row of rows) {
      if (Number(row.version) >= Number(row.settled)) break;
      next = { version: Number(row.version), soundSeq: Number(row.sound_seq) };
    }
    return { counts: rows.map((row) => ({ soundSeq: Number(row.sound_seq), count: Number(row.count) })), cursor: next };
  }

  /** Resolves once every download counted so far is committed (or failed). */
  async settled(): Promise<void> {
    if (this.batch) await this.batch.committed.catch(() => {});
    await this.writing.catch(() => {});
  }

  /**
   * A new batch, written once the turn's I/O is handled (setImmediate): under load one commit
   * carries many downloads, so durability costs a transaction per turn, not per download.
   */
  private open(): Batch {
    const batch: Batch = { additions: new Map(), totals: new Map(), committed: Promise.resolve() };
    batch.committed = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.batch = null;
      this.writing = this.writing.catch(() => {}).then(() => this.write(batch));
      return this.writing;
    });
    return batch;
  }

  private async write(batch: Batch): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.writeOnce(batch);
      } catch (error) {
        // A sound removed between the join's read and the key's check (PostgreSQL reads what is
        // committed as each statement starts): written again, the join no longer finds it.
        if (attempt < 3 && isForeignKeyViolation(error)) continue;
        throw error;
      }
    }
  }

  private async writeOnce(batch: Batch): Promise<void> {
    batch.totals.clear();
    const entries = [...batch.additions].sort(([a], [b]) => a - b);
    await this.db.transaction().execute(async (trx) => {
      for (let from = 0; from < entries.length; from += SOUNDS_PER_STATEMENT) {
        const values = sql.join(entries.slice(from, from + SOUNDS_PER_STATEMENT)
          .map(([seq, n]) => sql`(CAST(${seq} AS INTEGER), CAST(${n} AS INTEGER))`));
        // VALUES' columns are column1, column2 on both engines. The join with sounds counts only
        // sounds that still exist; `WHERE true` lets SQLite parse ON CONFLICT after a SELECT.
        const { rows } = await sql<{ sound_seq: number; count: number | string }>`
          INSERT INTO sound_downloads (sound_seq, count, version)
          SELECT sounds.seq, added.column2, ${this.dialect.downloadsVersion}
          FROM (VALUES ${values}) AS added JOIN sounds ON sounds.seq = added.column1 WHERE true
          ON CONFLICT (sound_seq) DO UPDATE SET count = sound_downloads.count + excluded.count, version = excluded.version
          RETURNING sound_seq, count`.execute(trx);
        for (const row of rows) batch.totals.set(Number(row.sound_seq), Number(row.count));
      }
    });
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
