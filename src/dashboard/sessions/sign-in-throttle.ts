import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeEmail } from '../../accounts/store.ts';
import type { Db } from '../../db/index.ts';
import { storable } from '../../db/text.ts';

/** 10 failed sign-ins per 15 minutes, counted separately per client address and per email. */
export const SIGN_IN_RULE = { failures: 10, windowMs: 15 * 60 * 1000 };

type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Failed attempts per subject (`address:<ip>`, `email:<email>`), kept in the database so every
 * instance counts the same failures: the store behind @fastify/rate-limit for sign-in. A sliding
 * window: a subject is over while `max` failures lie within the last `timeWindow`, and `ttl` says
 * when enough of them will have left it.
 */
export class FailureLog implements FastifyRateLimitStore {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  /** Records one failure and reports the count, as the plugin's limiter asks. */
  incr(key: string, done: Done, timeWindow: number, max: number): void {
    this.record(key, timeWindow).then(() => this.count(key, timeWindow, max)).then((result) => done(null, result), done);
  }

  /** The count without recording anything (the limiter's `{ increment: false }`). */
  read(key: string, done: Done, timeWindow: number, max: number): void {
    this.count(key, timeWindow, max).then((result) => done(null, result), done);
  }

  child(): FastifyRateLimitStore {
    return this;
  }

  /** A correct password forgives that email's failures (not the address's: it may be shared). */
  async forgive(key: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sign_in_failures').where('subject', '=', key).execute();
  }

  private async record(key: string, timeWindow: number): Promise<void> {
    const now = this.clock();
    await this.db.deleteFrom('dashboard_sign_in_failures').where('failed_at', '<=', new Date(now - timeWindow).toISOString()).execute();
    await this.db.insertInto('dashboard_sign_in_failures').values({ subject: key, failed_at: new Date(now).toISOString() }).execute();
  }

  private async count(key: string, timeWindow: number, max: number): Promise<{ current: number; ttl: number }> {
    const now = this.clock();
    const recent = await this.db.selectFrom('dashboard_sign_in_failures').select('failed_at')
      .where('subject', '=', key).where('failed_at', '>', new Date(now - timeWindow).toISOString())
      .orderBy('failed_at', 'desc').limit(max).execute();
    if (recent.length === 0) return { current: 0, ttl: 0 };
    // Under `max` again once the oldest of the last `max` failures leaves the window.
    const oldest = Date.parse(recent[recent.length - 1]!.failed_at);
    return { current: recent.length, ttl: Math.max(0, oldest + timeWindow - now) };
  }
}

/**
 * What the sign-in and sign-up forms ask. A request is counted by its client address and, with
 * `byEmail`, also by the form's `email` field.
 */
export interface SignInThrottle {
  /** Seconds until this request may try again; 0 when it may now. */
  waitSeconds(request: FastifyRequest, byEmail: boolean): Promise<number>;
  recordFailure(request: FastifyRequest, byEmail: boolean): Promise<void>;
  /** Forgets the failures of an email (after its correct password). */
  forgive(email: string): Promise<void>;
}

/**
 * Registers @fastify/rate-limit in the dashboard's scope with the shared failure log as its store,
 * and returns the sign-in throttle built from two of its limiters. Only failures are counted: a
 * limiter is read before the password is checked and incremented when it was wrong.
 */
export async function addSignInThrottle(scope: FastifyInstance, failures: FailureLog): Promise<SignInThrottle> {
  await scope.register(rateLimit, {
    global: false,
    // The plugin makes its store with `new`; a constructor that returns an object hands it the shared log.
    store: function sharedFailureLog() {
      return failures;
    } as unknown as FastifyRateLimitStoreCtor,
  });
  const limits = { max: SIGN_IN_RULE.failures, timeWindow: SIGN_IN_RULE.windowMs };
  const addressLimiter = scope.createRateLimit({ ...limits, keyGenerator: (request) => `address:${request.ip}` });
  const emailLimiter = scope.createRateLimit({ ...limits, keyGenerator: (request) => emailKey(emailOf(request)) });

  const limitersFor = (byEmail: boolean) => (byEmail ? [addressLimiter, emailLimiter] : [addressLimiter]);
  return {
    async waitSeconds(request, byEmail) {
      let wait = 0;
      for (const limiter of limitersFor(byEmail)) {
        const status = await limiter(request, { increment: false });
        if (!status.isAllowed && status.remaining === 0) wait = Math.max(wait, status.ttlInSeconds);
      }
      return wait;
    },
    async recordFailure(request, byEmail) {
      for (const limiter of limitersFor(byEmail)) await limiter(request);
    },
    forgive: (email) => failures.forgive(emailKey(email)),
  };
}

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * The failure log's subject for an email. An email holding the NUL character (never an account's:
 * no stored text can hold it) is written escaped, under a prefix of its own, so that PostgreSQL
 * can store it and it names no other email's failures.
 */
function emailKey(email: string): string {
  const normalized = normalizeEmail(email);
  return storable(normalized) ? `email:${normalized}` : `email-escaped:${JSON.stringify(normalized)}`;
}
