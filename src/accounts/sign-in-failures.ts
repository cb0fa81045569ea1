import { randomBytes } from 'node:crypto';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Db } from '../db/index.ts';

type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Attempts per subject (`address:<group>`, `email:<email>`, `sign-up:<group>`), kept in the
 * database so every instance counts the same ones: the store behind @fastify/rate-limit for the
 * dashboard's sign-in and sign-up forms (their rules: dashboard/sessions/sign-in-throttle.ts). A
 * sliding window: an attempt is allowed when, counted with every attempt already in the window,
 * it is one of the first `max`; `ttl` says when enough of them will have left it.
 *
 * An attempt is written before it is decided, then decided from the count that includes it: of
 * any number of concurrent attempts, on any number of instances, each one counts at least every
 * attempt written before it, so no more than `max` can be allowed. A refused attempt's row is
 * removed again (it did no work), and so is a correct sign-in's (it was no failure).
 *
 * Each row's `failed_at` is the attempt's time (ISO 8601, so text order is time order) followed
 * by a random attempt id, so that one attempt's row can be removed alone.
 */
export class FailureLog implements FastifyRateLimitStore {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  /** Records one attempt and reports the count that includes it, as the plugin's limiter asks. */
  incr(key: string, done: Done, timeWindow: number, max: number): void {
    this.attempt(key, timeWindow, max).then((result) => done(null, result), done);
  }

  /** The count without recording anything (the limiter's `{ increment: false }`). */
  read(key: string, done: Done, timeWindow: number, max: number): void {
    this.recent(key, timeWindow, max).then(
      (stamps) => done(null, { current: stamps.length, ttl: this.ttlOf(stamps, timeWindow, max) }),
      done,
    );
  }

  child(): FastifyRateLimitStore {
    return this;
  }

  /** A correct password forgives that email's failures (not the address's: it may be shared). */
  async forgive(key: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sign_in_failures').where('subject', '=', key).execute();
  }

  /** Takes back one attempt of the subject (the latest): one that turned out not to be a failure. */
  async release(key: string): Promise<void> {
    const latest = await this.db
      .selectFrom('dashboard_sign_in_failures')
      .select('failed_at')
      .where('subject', '=', key)
      .orderBy('failed_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (latest) await this.remove(key, latest.failed_at);
  }

  private async attempt(key: string, timeWindow: number, max: number): Promise<{ current: number; ttl: number }> {
    const now = this.clock();
    const stamp = `${new Date(now).toISOString()} ${randomBytes(8).toString('hex')}`;
    await this.db
      .deleteFrom('dashboard_sign_in_failures')
      .where('failed_at', '<=', new Date(now - timeWindow).toISOString())
      .execute();
    await this.db.insertInto('dashboard_sign_in_failures').values({ subject: key, failed_at: stamp }).execute();
    // One more than `max` is enough to know this attempt is past the limit.
    const stamps = await this.recent(key, timeWindow, max + 1);
    if (stamps.length <= max) return { current: stamps.length, ttl: 0 };
    await this.remove(key, stamp);
    const others = stamps.filter((other) => other !== stamp);
    return { current: stamps.length, ttl: this.ttlOf(others, timeWindow, max) };
  }

  /** The newest `limit` attempts of the subject within the window, newest first. */
  private async recent(key: string, timeWindow: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('dashboard_sign_in_failures')
      .select('failed_at')
      .where('subject', '=', key)
      .where('failed_at', '>', new Date(this.clock() - timeWindow).toISOString())
      .orderBy('failed_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.failed_at);
  }

  /** Milliseconds until fewer than `max` attempts lie in the window: when the max-th newest leaves it. */
  private ttlOf(newestFirst: string[], timeWindow: number, max: number): number {
    const leaving = newestFirst[max - 1];
    if (leaving === undefined) return 0;
    return Math.max(0, Date.parse(leaving.slice(0, 24)) + timeWindow - this.clock());
  }

  private async remove(key: string, stamp: string): Promise<void> {
    await this.db
      .deleteFrom('dashboard_sign_in_failures')
      .where('subject', '=', key)
      .where('failed_at', '=', stamp)
      .execute();
  }
}
