import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FailureLog } from '../../accounts/sign-in-failures.ts';
import { normalizeEmail } from '../../accounts/store.ts';
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
    max: SIGN_UP_RULE.signUps,
    timeWindow: SIGN_UP_RULE.windowMs,
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
