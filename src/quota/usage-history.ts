import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { TurnCommit, type TakenWrite } from '../db/turn-commit.ts';

/** How often counted requests are written to the database when nobody waits for them. */
const FLUSH_INTERVAL_MS = 1000;
/** Rows per upsert: 3 parameters each stays far below SQLite's (32,766) and PostgreSQL's (65,535) limits. */
const ROWS_PER_STATEMENT = 1000;

/**
 * Requests per account and per key per UTC day, in the database: what the dashboard's usage chart
 * and key list show, and where the in-process quota counter starts from. Whichever counter
 * enforces the quota (in this process, or Redis) adds each request it allows here; the additions
 * are written as additions, so several processes never overwrite each other.
 *
 * The in-process counter waits for `committed()` before its request is answered, so a process
 * killed outright has written every request it answered. The Redis counter keeps the count
 * itself and lets the history be written every second.
 */
export class UsageHistory {
  /** Additions not yet written, by day, then account (or key). */
  private accounts = new Map<string, Map<string, number>>();
  private keys = new Map<string, Map<string, number>>();
  private readonly flushTimer: NodeJS.Timeout;

  /** `commits`: the group commit it shares with the download counts (db/turn-commit.ts). */
  constructor(
    private readonly db: Db,
    private readonly commits: TurnCommit = new TurnCommit(db),
  ) {
    commits.join({ take: () => this.take() });
    this.flushTimer = setInterval(() => void this.flush().catch(() => {}), FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
  }

  /** `count` requests allowed for the account on the day, through the key (null: not through a key). */
  add(accountId: string, keyId: string | null, day: string, count = 1): void {
    addTo(this.accounts, day, accountId, count);
    if (keyId !== null) addTo(this.keys, day, keyId, count);
  }

  /**
   * Resolves once what was added so far is committed: with everything else the ledger gathered in
   * the same event-loop turn, in one transaction (db/turn-commit.ts).
   */
  committed(): Promise<void> {
    return this.commits.committed();
  }

  /** Requests written for an account on each of the given days (YYYY-MM-DD), 0 where none. */
  async usage(accountId: string, days: string[]): Promise<number[]> {
    await this.flush();
    const rows = await this.db
      .selectFrom('usage_daily')
      .select(['day', 'count'])
      .where('account_id', '=', accountId)
      .where('day', 'in', days)
      .execute();
    return countsByDay(rows, days);
  }

  /** The same per key. */
  async keyUsage(keyId: string, days: string[]): Promise<number[]> {
    await this.flush();
    const rows = await this.db
      .selectFrom('key_usage_daily')
      .select(['day', 'count'])
      .where('key_id', '=', keyId)
      .where('day', 'in', days)
      .execute();
    return countsByDay(rows, days);
  }

  /** The count written for one account and day (what an in-process counter starts from). */
  async written(accountId: string, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage_daily')
      .select('count')
      .where('account_id', '=', accountId)
      .where('day', '=', day)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flush();
  }

  /** Writes what was added since the last flush; on failure the additions wait for the next one. */
  flush(): Promise<void> {
    return this.commits.committed();
  }

  /** The additions since the last commit, for the ledger's next one; put back when it fails. */
  private take(): TakenWrite | null {
    const [accounts, keys] = [this.accounts, this.keys];
    if (accounts.size === 0 && keys.size === 0) return null;
    this.accounts = new Map();
    this.keys = new Map();
    return {
      write: async (trx) => {
        await addCounts(trx, 'usage_daily', 'account_id', accounts);
        await addCounts(trx, 'key_usage_daily', 'key_id', keys);
      },
      failed: () => {
        // Nothing was written: the additions wait for the next commit.
        for (const [day, ofDay] of accounts) for (const [id, count] of ofDay) addTo(this.accounts, day, id, count);
        for (const [day, ofDay] of keys) for (const [id, count] of ofDay) addTo(this.keys, day, id, count);
      },
    };
  }
}

/**
 * Adds the counts to a table in one statement: a flush under load carries the requests of many
 * accounts and keys, and one upsert per row cost a statement each (built by Kysely, run by the
 * database) where one multi-row upsert costs one.
 */
async function addCounts(
  db: Db,
  table: 'usage_daily' | 'key_usage_daily',
  idColumn: 'account_id' | 'key_id',
  counts: Map<string, Map<string, number>>,
): Promise<void> {
  const rows = [...counts].flatMap(([day, ofDay]) => [...ofDay].map(([id, count]) => sql`(${id}, ${day}, ${count})`));
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    await sql`INSERT INTO ${sql.table(table)} (${sql.ref(idColumn)}, day, count)
      VALUES ${sql.join(rows.slice(start, start + ROWS_PER_STATEMENT))}
      ON CONFLICT (${sql.ref(idColumn)}, day) DO UPDATE SET count = ${sql.table(table)}.count + excluded.count`.execute(
      db,
    );
  }
}

function addTo(counts: Map<string, Map<string, number>>, day: string, id: string, count: number): void {
  const ofDay = counts.get(day) ?? counts.set(day, new Map()).get(day)!;
  ofDay.set(id, (ofDay.get(id) ?? 0) + count);
}

function countsByDay(rows: Array<{ day: string; count: number | string }>, days: string[]): number[] {
  const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
  return days.map((day) => byDay.get(day) ?? 0);
}
