import type { Db } from '../db/index.ts';
import type { RenditionFacts } from './rendition-choice.ts';

/** A stored rendition as eviction sees it. */
export interface StoredRendition {
  fileKey: string;
  bytes: number;
}

/** A rendition's record: stored (with what its file measures), or claimed by the job making it. */
export type RenditionState = { kind: 'stored'; facts: RenditionFacts } | { kind: 'claimed'; expiresAt: number };

/**
 * The record of stored renditions, in the shared database: each file's size and facts, when it
 * was made and last served. Every instance reads the same total and the same order, so several
 * instances sharing one file store keep it under one bound together. A rendition being made has
 * a claim row first, so that one instance makes it and the others wait; its `bytes` reserve the
 * output's estimated size, so scratch files count within the bound until the file is stored.
 */
export class RenditionStore {
  constructor(private readonly db: Db) {}

  /** The facts of a stored rendition; null when there is none (or it is only being made). */
  async facts(fileKey: string): Promise<RenditionFacts | null> {
    const record = await this.state(fileKey);
    return record?.kind === 'stored' ? record.facts : null;
  }

  /** What the record says of this rendition: stored, being made (and until when the claim holds), or nothing. */
  async state(fileKey: string): Promise<RenditionState | null> {
    const row = await this.db
      .selectFrom('renditions')
      .select(['duration', 'integrated_lufs', 'true_peak_db', 'claimed_by', 'claim_expires_at'])
      .where('file_key', '=', fileKey)
      .executeTakeFirst();
    if (!row) return null;
    if (row.claimed_by !== null) return { kind: 'claimed', expiresAt: Date.parse(row.claim_expires_at ?? '') || 0 };
    return {
      kind: 'stored',
      facts: {
        duration: row.duration,
        loudness: { integrated_lufs: row.integrated_lufs, true_peak_db: row.true_peak_db },
      },
    };
  }

  /**
   * Claims the making of a rendition for `owner` until `expiresAt`: true when this call got it,
   * of every instance's. It gets it when there is no row, or when the row is a claim that expired
   * by `now` (its maker died or hangs); never over a stored rendition or a live claim. One
   * statement, so two instances claiming at once cannot both win. `reserveBytes` count in the
   * total until the claim is given up or turned into the record.
   */
  async claim(fileKey: string, owner: string, now: Date, expiresAt: Date, reserveBytes = 0): Promise<boolean> {
    const at = now.toISOString();
    // Whole bytes, within the column's 32-bit integer (PostgreSQL); eviction never picks a claim.
    const bytes = Math.min(Math.ceil(reserveBytes), 2 ** 31 - 1);
    const claim = { claimed_by: owner, claim_expires_at: expiresAt.toISOString(), bytes };
    const row = await this.db
      .insertInto('renditions')
      .values({
        file_key: fileKey,
        duration: 0,
        integrated_lufs: null,
        true_peak_db: null,
        made_at: at,
        last_served_at: at,
        ...claim,
      })
      .onConflict((oc) =>
        oc
          .column('file_key')
          .doUpdateSet({ ...claim, made_at: at, last_served_at: at })
          .where('renditions.claim_expires_at', '<', at),
      )
      .returning('claimed_by')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Moves the claim's expiry on while its maker works; false when it is no longer this owner's (taken over). */
  async renew(fileKey: string, owner: string, expiresAt: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('renditions')
      .set({ claim_expires_at: expiresAt.toISOString() })
      .where('file_key', '=', fileKey)
      .where('claimed_by', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives a claim up (its making failed or was refused), so that a waiting instance may make it at once. */
  async release(fileKey: string, owner: string): Promise<void> {
    await this.db.deleteFrom('renditions').where('file_key', '=', fileKey).where('claimed_by', '=', owner).execute();
  }

  /**
   * Records a file just made, in place of its claim (or again, when its file had vanished or
   * another instance made it too).
   */
  async add(fileKey: string, bytes: number, facts: RenditionFacts, now: Date): Promise<void> {
    const at = now.toISOString();
    const values = {
      bytes,
      duration: facts.duration,
      integrated_lufs: facts.loudness.integrated_lufs,
      true_peak_db: facts.loudness.true_peak_db,
      claimed_by: null,
      claim_expires_at: null,
    };
    await this.db
      .insertInto('renditions')
      .values({ file_key: fileKey, ...values, made_at: at, last_served_at: at })
      .onConflict((oc) => oc.column('file_key').doUpdateSet({ ...values, made_at: at, last_served_at: at }))
      .execute();
  }

  /** Moves these renditions to the recent end of the order: one statement for a whole batch. */
  async served(fileKeys: string[], at: Date): Promise<void> {
    // In slices, well under every engine's limit on a statement's parameters.
    for (let start = 0; start < fileKeys.length; start += 500) {
      const slice = fileKeys.slice(start, start + 500);
      await this.db
        .updateTable('renditions')
        .set({ last_served_at: at.toISOString() })
        .where('file_key', 'in', slice)
        .execute();
    }
  }

  /** What stored renditions occupy and claims reserve, all instances together. */
  async totalBytes(): Promise<number> {
    const row = await this.db
      .selectFrom('renditions')
      .select((eb) => eb.fn.sum<number | string | null>('bytes').as('total'))
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** The least recently served renditions first. */
  async leastRecentlyServed(limit: number): Promise<StoredRendition[]> {
    const rows = await this.db
      .selectFrom('renditions')
      .select(['file_key', 'bytes'])
      .where('claimed_by', 'is', null)
      .orderBy('last_served_at')
      .orderBy('file_key')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ fileKey: row.file_key, bytes: Number(row.bytes) }));
  }

  /**
   * Deletes the record of a stored rendition (never a claim); true for the one caller (of every
   * instance) whose delete found it.
   */
  async remove(fileKey: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('renditions')
      .where('file_key', '=', fileKey)
      .where('claimed_by', 'is', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
