import type { Db } from '../../db/index.ts';

export interface ThrottleRule {
  failures: number;
  windowMs: number;
}

/** 10 failed sign-ins per 15 minutes, counted separately per client address and per email. */
export const SIGN_IN_RULE: ThrottleRule = { failures: 10, windowMs: 15 * 60 * 1000 };

/**
 * Counts failures in the database, so several instances share one count. A subject is
 * `address:<ip>` or `email:<email>`; a sign-in is refused while any of its subjects is over.
 */
export class SignInThrottle {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly rule: ThrottleRule = SIGN_IN_RULE,
  ) {}

  /** Seconds until every subject may try again, or 0 when none is throttled. */
  async waitSeconds(subjects: string[]): Promise<number> {
    const now = this.clock();
    const since = new Date(now - this.rule.windowMs).toISOString();
    let wait = 0;
    for (const subject of subjects) {
      const recent = await this.db.selectFrom('dashboard_sign_in_failures').select('failed_at')
        .where('subject', '=', subject).where('failed_at', '>', since)
        .orderBy('failed_at', 'desc').limit(this.rule.failures).execute();
      if (recent.length < this.rule.failures) continue;
      // Allowed again once the oldest of the last `failures` failures leaves the window.
      const oldest = Date.parse(recent[recent.length - 1]!.failed_at);
      wait = Math.max(wait, Math.ceil((oldest + this.rule.windowMs - now) / 1000));
    }
    return wait;
  }

  async recordFailure(subjects: string[]): Promise<void> {
    const now = this.clock();
    await this.db.deleteFrom('dashboard_sign_in_failures')
      .where('failed_at', '<=', new Date(now - this.rule.windowMs).toISOString()).execute();
    const failedAt = new Date(now).toISOString();
    await this.db.insertInto('dashboard_sign_in_failures')
      .values(subjects.map((subject) => ({ subject, failed_at: failedAt }))).execute();
  }

  /** A correct password forgives that email's failures (not the address's: it may be shared). */
  async forgive(subject: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sign_in_failures').where('subject', '=', subject).execute();
  }
}
