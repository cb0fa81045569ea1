import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { SqlDialect } from '../db/dialects/types.ts';
import { TurnCommit, type TakenWrite } from '../db/turn-commit.ts';

/** Past every sound's row key (a 32-bit integer on PostgreSQL): a cursor at it has read all of its version. */
const PAST_EVERY_SOUND = 2 ** 31 - 1;
/** Sounds per statement: two parameters each, far under SQLite's and PostgreSQL's limits. */
export const SOUNDS_PER_STATEMENT = 1000;

/**
 * Where a reader of changed counts has got to: every count up to this version and sound is read,
 * but those of `running`.
 */
export interface CountsCursor {
  version: number;
  soundSeq: number;
  /**
   * Versions at or below `version` whose transactions were still running when it was read: their
   * counts were not visible then, and are read once they have ended (PostgreSQL; always empty on
   * SQLite, whose versions are committed in order).
   */
  running: number[];
}

/** A count as the poll reads it, with the transactions running in its snapshot (PostgreSQL). */
interface ChangedRow {
  sound_seq: number | string;
  count: number | string;
  version: number | string;
  running: string;
}

/** A sound's all-time count, by its row key. */
export interface SoundCount {
  soundSeq: number;
  count: number;
}

/** The downloads gathered for one commit. */
interface Batch {
  additions: Map<number, number>;
  /** Each sound's count as the commit left it; a sound missing here was removed meanwhile. */
  totals: Map<number, number>;
  /** Why the commit that took this batch failed: none of its downloads was counted. */
  failure?: unknown;
}

/**
 * Every sound's download count, in `sound_downloads`: the durable record of what was downloaded.
 * A download is committed before it is answered, in the ledger's commit of its event-loop turn
 * (db/turn-commit.ts: one transaction with the turn's other downloads and the quota's usage), so
 * a process killed outright has written every download it answered. The table is not `sounds`: a count is
 * no catalog change and never reaches the change log mirrors read.
 *
 * Each commit gives the rows it changes a version (db/dialects); other instances read the rows
 * whose version passed the last they read, through `changedSince`.
 */
export class DownloadCounts {
  private batch: Batch | null = null;

  /** `commits`: the group commit it shares with the usage history (db/turn-commit.ts). */
  constructor(
    private readonly db: Db,
    private readonly dialect: SqlDialect,
    private readonly commits = new TurnCommit(db),
  ) {
    commits.join({ take: () => this.take() });
  }

  /**
   * Counts `times` downloads of the sound; resolves once they are committed, with the sound's
   * all-time count as that commit left it, or null when the sound was removed meanwhile (nothing
   * counted). Rejects when the commit fails: then nothing of its batch was counted.
   */
  async add(soundSeq: number, times = 1): Promise<number | null> {
    const batch: Batch = (this.batch ??= { additions: new Map(), totals: new Map() });
    batch.additions.set(soundSeq, (batch.additions.get(soundSeq) ?? 0) + times);
    await this.commits.committed();
    if (batch.failure !== undefined) throw batch.failure;
    return batch.totals.get(soundSeq) ?? null;
  }

  /** Where a reader starts that has every count committed so far (read before the counts are loaded). */
  async cursorNow(): Promise<CountsCursor> {
    const row = await this.db
      .selectFrom('sound_downloads')
      .select((eb) => [eb.fn.max('version').as('version'), this.dialect.runningTransactions.as('running')])
      .executeTakeFirstOrThrow();
    const version = Number(row.version ?? 0);
    return { version, soundSeq: PAST_EVERY_SOUND, running: runningUpTo(row.running, version) };
  }

  /**
   * The counts changed after `cursor`: first all those of its running transactions that have ended
   * since (one turn's downloads each), then at most `limit` more in version order; `more` when
   * there may be others after those. A version is its transaction's id on PostgreSQL, where writers
   * commit side by side: a count is read once its transaction has ended, and a transaction running
   * at a read (in the statement's snapshot) is remembered in the cursor, not waited for. A
   * transaction left open elsewhere (a backup's, say) holds nothing back.
   */
  async changedSince(
    cursor: CountsCursor,
    limit: number,
  ): Promise<{ counts: SoundCount[]; cursor: CountsCursor; more: boolean }> {
    const counts: SoundCount[] = [];
    let running = cursor.running;
    if (running.length > 0) {
      // Every row of the ended ones, and the running transactions of the same snapshot, which a
      // row of its own brings when no count comes.
      const { rows } = await sql<{ sound_seq: number | null; count: number | string | null; running: string | null }>`
        SELECT sound_seq, count, NULL AS running FROM sound_downloads
        WHERE version IN (${sql.join(running.map((version) => sql`CAST(${version} AS BIGINT)`))})
        UNION ALL SELECT NULL, NULL, ${this.dialect.runningTransactions}`.execute(this.db);
      const still = new Set(runningUpTo(rows.find((row) => row.running !== null)!.running!, cursor.version));
      running = running.filter((version) => still.has(version));
      for (const row of rows)
        if (row.sound_seq !== null) counts.push({ soundSeq: Number(row.sound_seq), count: Number(row.count) });
    }
    // Two seeks of the (version, sound_seq) index in one statement (one snapshot): the rest of the
    // cursor's version, then the versions after it. SQLite answers the row value `(version,
    // sound_seq) > (v, s)` by seeking `version` alone and reading every row of version v: on a
    // catalog whose counts all sit at the version a migration or an import gave them, that read
    // every count, ten times a second, while the server was idle.
    const { version: at, soundSeq: after } = cursor;
    const { rows } = await sql<ChangedRow>`
      SELECT sound_seq, count, version, ${this.dialect.runningTransactions} AS running FROM (
        SELECT * FROM (
          SELECT sound_seq, count, version FROM sound_downloads
          WHERE version = ${at} AND sound_seq > ${after} ORDER BY sound_seq LIMIT ${limit}
        ) AS rest_of_version
        UNION ALL
        SELECT * FROM (
          SELECT sound_seq, count, version FROM sound_downloads
          WHERE version > ${at} ORDER BY version, sound_seq LIMIT ${limit}
        ) AS later_versions
      ) AS changed
      ORDER BY version, sound_seq LIMIT ${limit}`.execute(this.db);
    for (const row of rows) counts.push({ soundSeq: Number(row.sound_seq), count: Number(row.count) });
    const last = rows[rows.length - 1];
    if (last === undefined) return { counts, cursor: { ...cursor, running }, more: false };
    const version = Number(last.version);
    // Transactions running in this snapshot whose versions the cursor now passes.
    const passed = runningUpTo(last.running, version).filter((id) => !running.includes(id));
    return {
      counts,
      cursor: { version, soundSeq: Number(last.sound_seq), running: [...running, ...passed] },
      more: rows.length === limit,
    };
  }

  /** Resolves once every download counted so far is committed (or failed). */
  async settled(): Promise<void> {
    await this.commits.committed().catch(() => {});
  }

  /**
   * This batch, for the ledger's next commit. A failed commit is not tried again: its downloads
   * were answered as failed.
   */
  private take(): TakenWrite | null {
    const batch = this.batch;
    if (batch === null) return null;
    this.batch = null;
    return {
      write: (trx) => this.write(trx, batch),
      failed: () => (batch.failure = new Error('the downloads could not be committed')),
    };
  }

  private async write(trx: Db, batch: Batch): Promise<void> {
    const entries = [...batch.additions].sort(([a], [b]) => a - b);
    for (let from = 0; from < entries.length; from += SOUNDS_PER_STATEMENT) {
      const values = sql.join(
        entries
          .slice(from, from + SOUNDS_PER_STATEMENT)
          .map(([seq, n]) => sql`(CAST(${seq} AS INTEGER), CAST(${n} AS INTEGER))`),
      );
      // VALUES' columns are column1, column2 on both engines. The join counts only sounds that
      // still exist, and holds them until the commit (db/dialects); `WHERE true` lets SQLite parse
      // ON CONFLICT after a SELECT.
      const { rows } = await sql<{ sound_seq: number; count: number | string }>`
        INSERT INTO sound_downloads (sound_seq, count, version)
        SELECT sounds.seq, added.column2, ${this.dialect.downloadsVersion}
        FROM (VALUES ${values}) AS added JOIN sounds ON sounds.seq = added.column1
        WHERE true ${this.dialect.keepJoinedSounds}
        ON CONFLICT (sound_seq) DO UPDATE SET count = sound_downloads.count + excluded.count, version = excluded.version
        RETURNING sound_seq, count`.execute(trx);
      for (const row of rows) batch.totals.set(Number(row.sound_seq), Number(row.count));
    }
  }
}

/** The transaction ids in a list joined by commas (the dialect's runningTransactions), at most `version`. */
function runningUpTo(list: string, version: number): number[] {
  return list === ''
    ? []
    : list
        .split(',')
        .map(Number)
        .filter((id) => id <= version);
}
