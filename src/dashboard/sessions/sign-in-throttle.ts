import { randomBytes } from 'node:crypto';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeEmail } from '../../accounts/store.ts';
import type { Db } from '../../db/index.ts';
import { storable } from '../../db/text.ts';
import { clientGroupOf } from '../../net/client-group.ts';

/**
 * 10 failed sign-ins per 15 minutes, counted separately per client address and per email (an
 * attempt counts as failed from before its password is checked until it turns out right). A
 * client address is counted by its group (clientGroupOf): an IPv6 client by its /64.
 */
export const SIGN_IN_RULE = { failures: 10, windowMs: 15 * 60 * 1000 };
/** 10 sign-ups an hour per client address (its group, as above): each runs a password hash and makes an account. */
export const SIGN_UP_RULE = { signUps: 10, windowMs: 60 * 60 * 1000 };

type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Attempts per subject (`address:<group>`, `email:<email>`, `sign-up:<group>`), kept in the database so
 * every instance counts the same ones: the store behind @fastify/rate-limit for the sign-in and
 * sign-up forms. A sliding window: an attempt is allowed when, counted with every attempt already
 * in the window, it is one of the first `max`; `ttl` says when enough of them will have left it.
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
    this.recent(key, timeWindow, max)
      .then((stamps) => done(null, { current: stamps.length, ttl: this.ttlOf(stamps, timeWindow, max) }), done);
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
    const latest = await this.db.selectFrom('dashboard_sign_in_failures').select('failed_at')
      .where('subject', '=', key).orderBy('failed_at', 'desc').limit(1).executeTakeFirst();
    if (latest) await this.remove(key, latest.failed_at);
  }

  private async attempt(key: string, timeWindow: number, max: number): Promise<{ current: number; ttl: number }> {
    const now = this.clock();
    const stamp = `${new Date(now).toISOString()} ${randomBytes(8).toString('hex')}`;
    await this.db.deleteFrom('dashboard_sign_in_failures').where('failed_at', '<=', new Date(now - timeWindow).toISOString()).execute();
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
    const rows = await this.db.selectFrom('dashboard_sign_in_failures').select('failed_at')
      .where('subject', '=', key).where('failed_at', '>', new Date(this.clock() - timeWindow).toISOString())
      .orderBy('failed_at', 'desc').limit(limit).execute();
    return rows.map((row) => row.failed_at);
  }

  /** Milliseconds until fewer than `max` attempts lie in the window: when the max-th newest leaves it. */
  private ttlOf(newestFirst: string[], timeWindow: number, max: number): number {
    const leaving = newestFirst[max - 1];
    if (leaving === undefined) return 0;
    return Math.max(0, Date.parse(leaving.slice(0, 24)) + timeWindow - this.clock());
  }

  private async remove(key: string, stamp: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sign_in_failures').where('subject', '=', key).where('failed_at', '=', stamp).execute();
  }
}

/** Whether a form may go on, and if not, how many seconds until it may. */
export type Admission = { allowed: true } | { allowed: false; waitSeconds: number };

/** What the sign-in and sign-up forms ask, before any password is hashed or checked. */
export interface SignInThrottle {
  /** Counts a sign-in attempt by client address and by the form's email. */
  admitSignIn(request: FastifyRequest): Promise<Admission>;
  /** The password was right: forgets the email's failures and takes back this attempt of the address. */
  signedIn(request: FastifyRequest, email: string): Promise<void>;
  /** Counts a sign-up by client address. */
  admitSignUp(request: FastifyRequest): Promise<Admission>;
}

/**
 * Registers @fastify/rate-limit in the dashboard's scope with the shared attempt log as its store,
 * and returns the throttle built from three of its limiters. Every attempt is counted before its
 * password is hashed or checked, so a crowd of parallel guesses gets no more checks than the rule.
 */
export async function addSignInThrottle(scope: FastifyInstance, failures: FailureLog): Promise<SignInThrottle> {
  await scope.register(rateLimit, {
    global: false,
    // The plugin makes its store with `new`; a constructor that returns an object hands it the shared log.
    store: function sharedFailureLog() {
      return failures;
    } as unknown as FastifyRateLimitStoreCtor,
  });
  const signIn = { max: SIGN_IN_RULE.failures, timeWindow: SIGN_IN_RULE.windowMs };
  const addressLimiter = scope.createRateLimit({ ...signIn, keyGenerator: addressKey });
  const emailLimiter = scope.createRateLimit({ ...signIn, keyGenerator: (request) => emailKey(emailOf(request)) });
  const signUpLimiter = scope.createRateLimit({
    max: SIGN_UP_RULE.signUps, timeWindow: SIGN_UP_RULE.windowMs,
    keyGenerator: (request) => `sign-up:${clientGroupOf(request.ip)}`,
  });

  return {
    async admitSignIn(request) {
      const byAddress = admissionOf(await addressLimiter(request));
      if (!byAddress.allowed) return byAddress;
      const byEmail = admissionOf(await emailLimiter(request));
      if (!byEmail.allowed) await failures.release(addressKey(request));
      return byEmail;
    },
    async signedIn(request, email) {
      await failures.forgive(emailKey(email));
      await failures.release(addressKey(request));
    },
    async admitSignUp(request) {
      return admissionOf(await signUpLimiter(request));
    },
  };
}

type LimiterStatus = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;

function admissionOf(status: LimiterStatus): Admission {
  if (!('isExceeded' in status) || !status.isExceeded) return { allowed: true };
  return { allowed: false, waitSeconds: Math.max(1, status.ttlInSeconds) };
}

function addressKey(request: FastifyRequest): string {
  return `address:${clientGroupOf(request.ip)}`;
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
