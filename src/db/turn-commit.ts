import type { Db } from './index.ts';

/**
 * What one part of the ledger has waiting: how to write it in the turn's transaction, and what to
 * do when that fails.
 */
export interface TakenWrite {
  write(trx: Db): Promise<void>;
  /** The transaction rolled back: nothing of it was written. */
  failed(): void;
}

/** A part of the ledger (the usage history, the download counts): hands over what waits, or null. */
export interface LedgerPart {
  take(): TakenWrite | null;
}

/**
 * The one durable group commit of what the service served and charged: whatever the parts
 * gathered during an event-loop turn (requests counted, downloads) is written in one transaction,
 * once the turn's I/O is handled (setImmediate), and everyone who waits for it is answered after
 * that commit. Under load one commit carries many requests and downloads, so durability costs a
 * transaction per turn, not one per request nor one per kind of record.
 */
export class TurnCommit {
  private readonly parts: LedgerPart[] = [];
  /** The commit that will take what is added now, while one is due. */
  private next: Promise<void> | undefined;
  /** The commit under way: one at a time, so each one holds everything added before it started. */
  private writing: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  join(part: LedgerPart): void {
    this.parts.push(part);
  }

  /**
   * Resolves once everything added so far is committed; rejects when the commit carrying it failed.
   * The commit starts once the turn's I/O is handled and the commit under way has ended: what is
   * added meanwhile joins it, so a slow commit makes the next one larger, not the line longer.
   */
  committed(): Promise<void> {
    this.next ??= this.afterThisTurn();
    return this.next;
  }

  private async afterThisTurn(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.writing?.catch(() => {});
    // From here on, additions wait for the commit after this one.
    this.next = undefined;
    const writing = this.write();
    this.writing = writing;
    try {
      await writing;
    } finally {
      if (this.writing === writing) this.writing = undefined;
    }
  }

  private async write(): Promise<void> {
    const taken = this.parts.map((part) => part.take()).filter((write) => write !== null);
    if (taken.length === 0) return;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const write of taken) await write.write(trx);
      });
    } catch (error) {
      for (const write of taken) write.failed();
      throw error;
    }
  }
}
