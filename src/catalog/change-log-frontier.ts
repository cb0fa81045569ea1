import type { RawBuilder } from 'kysely';
import type { Db } from '../db/index.ts';

/** Log numbers read per query while the frontier moves. */
const ROWS_PER_READ = 10_000;

/** Numbers missing from the log below a visible one, and who was writing when that was seen. */
interface Gap {
  from: number;
  to: number;
  /** The log's writers when the gap was first seen: the numbers' writers were among them. */
  writers: Set<string>;
}

/**
 * How far the change log can be read without missing a row still to come: every number at or
 * below the frontier is visible, or never will be. Readers of the log (the index's follower and
 * mirrors, catalog/database-change-feed.ts) read only that far.
 *
 * Where writers commit one at a time (SQLite), numbers become visible in order and the frontier
 * is the largest. On PostgreSQL writers run side by side, with no lock between them: a number
 * can become visible after a larger one. A missing number below a visible one belongs to a
 * transaction that is still running or was rolled back. When such a gap is first seen, its
 * numbers had already been handed out, so their writers were among those holding the log's write
 * lock just after that snapshot. Once none of those is running any more, the numbers still
 * missing never come, and the frontier moves past them. Transactions that write nothing to the
 * log are not waited for, however long they run. Numbers pruned from the log are passed at once:
 * pruning says how far it went (`catalog_changes_pruned`) before it deletes.
 */
export class ChangeLogFrontier {
  private settled = 0;
  private gap: Gap | null = null;
  /** One move at a time: each starts where the last one ended. */
  private queue: Promise<unknown> = Promise.resolve();

  /** `writers` is the dialect's changeLogWriters: null where numbers become visible in order. */
  constructor(
    private readonly db: Db,
    private readonly writers: RawBuilder<string> | null,
  ) {}

  /** The frontier as of now; it never moves back. */
  now(): Promise<number> {
    const moved = this.queue.then(() => (this.writers === null ? this.newest() : this.move(this.writers)));
    this.queue = moved.catch(() => undefined);
    return moved;
  }

  private async newest(): Promise<number> {
    const row = await this.db
      .selectFrom('catalog_changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    this.settled = Math.max(this.settled, Number(row?.seq ?? 0));
    return this.settled;
  }

  private async move(writers: RawBuilder<string>): Promise<number> {
    for (;;) {
      // One statement, so the rows are those its snapshot shows, and the writers those writing then.
      const rows = await this.db
        .selectFrom('catalog_changes')
        .select(['seq', writers.as('writers')])
        .where('seq', '>', this.settled)
        .orderBy('seq')
        .limit(ROWS_PER_READ)
        .execute();
      if (rows.length === 0) return this.settled;
      if (rows[0]!.seq > this.settled + 1 && (await this.passPruned())) continue;
      const running = idsIn(rows[0]!.writers);
      let gapSettled = false;
      for (const { seq } of rows) {
        const next = this.settled + 1;
        if (seq > next) {
          gapSettled = this.gapSettled(next, seq - 1, running);
          if (!gapSettled) return this.settled;
          break;
        }
        this.settled = seq;
      }
      if (!gapSettled && rows.length < ROWS_PER_READ) return this.settled;
    }
  }

  /** Moves the frontier past numbers pruned from the log; true when it moved. */
  private async passPruned(): Promise<boolean> {
    const row = await this.db.selectFrom('catalog_changes_pruned').select('upto').executeTakeFirst();
    const upto = Number(row?.upto ?? 0);
    if (upto <= this.settled) return false;
    this.settled = upto;
    this.gap = null;
    return true;
  }

  /**
   * Whether the numbers `from` to `to`, missing in a snapshot where `running` were running, never
   * come. Seen for the first time, the gap is remembered; it is settled once its writers are done.
   */
  private gapSettled(from: number, to: number, running: Set<string>): boolean {
    const gap = this.gap;
    if (gap === null || from < gap.from || from > gap.to) {
      this.gap = { from, to, writers: running };
      return false;
    }
    for (const writer of gap.writers) if (running.has(writer)) return false;
    // Only the numbers seen missing then: a larger one may belong to a writer begun since.
    this.settled = Math.min(gap.to, to);
    this.gap = null;
    return true;
  }
}

/** The transaction ids of a list joined by commas. */
function idsIn(list: string): Set<string> {
  return new Set(list === '' ? [] : list.split(','));
}
