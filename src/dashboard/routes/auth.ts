import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { PlanName } from '../../accounts/plans.ts';
import { DomainError } from '../../errors.ts';
import type { Dashboard } from '../context.ts';
import type { Html } from '../html.ts';
import { signInPage, signUpPage } from '../pages/auth-forms.ts';
import { formatWait } from '../pages/format.ts';
import {
  decoyHash,
  hashPassword,
  needsUpgrade,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  verifyPassword,
} from '../security/passwords.ts';
import { endSession, startSession } from '../sessions/visitor.ts';
import { sendPage } from './send-page.ts';

/** Accounts made in the dashboard start here; the operator moves them to a paid plan. */
const NEW_ACCOUNT_PLAN: PlanName = 'free';
/** The one answer to a wrong email or a wrong password, so neither reveals whether an email exists. */
const WRONG_CREDENTIALS = 'That email and password do not match an account. Check both and try again.';
/** Sign-up cannot hide a taken email without sending mail; it says as little as it can, and is throttled. */
const SIGN_UP_REFUSED =
  'We could not create an account with these details. If you already have an account, sign in instead.';

const signUpForm = z.object({
  email: z.string().trim().max(254).pipe(z.email('Enter an email address like name@example.com')),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters`),
});

const signInForm = z.object({
  email: z.string().trim().min(1, 'Enter your email').max(254, 'That is not an email we could have'),
  password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH, WRONG_CREDENTIALS),
  next: z.string().optional(),
});

/** Only paths inside the dashboard: `next` must never send anyone to another site. */
export function safeNext(next: unknown): string | undefined {
  return typeof next === 'string' && /^\/dashboard(\/[a-z0-9-]+)*$/.test(next) ? next : undefined;
}

export function registerAuthRoutes(scope: FastifyInstance, dashboard: Dashboard): void {
  scope.get('/sign-up', async (request, reply) => {
    if (request.visitor.account) return reply.redirect('/dashboard', 303);
    return sendPage(reply, signUpPage({ visitor: request.visitor }));
  });

  scope.post('/sign-up', async (request, reply) => {
    const fields = (request.body ?? {}) as Record<string, unknown>;
    const parsed = signUpForm.safeParse(fields);
    const email = typeof fields.email === 'string' ? fields.email.trim() : '';
    if (!parsed.success) {
      const fieldErrors = Object.fromEntries(
        parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
      );
      return sendPage(reply.code(400), signUpPage({ visitor: request.visitor, email, fieldErrors }));
    }
    const admission = await dashboard.signInThrottle.admitSignUp(request);
    if (!admission.allowed) {
      const wait = formatWait(admission.waitSeconds);
      const message = `Too many accounts were made from your network. Wait ${wait} and try again.`;
      return refuse(reply, admission.waitSeconds, signUpPage({ visitor: request.visitor, email, error: message }));
    }
    const passwordHash = await hashPassword(parsed.data.password);
    try {
      const account = await dashboard.accounts.createAccount(parsed.data.email, NEW_ACCOUNT_PLAN, passwordHash);
      await startSession(reply, dashboard, account, request.visitor.sessionId);
      return reply.redirect('/dashboard', 303);
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      return sendPage(reply.code(400), signUpPage({ visitor: request.visitor, email, error: SIGN_UP_REFUSED }));
    }
  });

  scope.get<{ Querystring: { next?: string } }>('/sign-in', async (request, reply) => {
    const next = safeNext(request.query.next);
    if (request.visitor.account) return reply.redirect(next ?? '/dashboard', 303);
    return sendPage(reply, signInPage({ visitor: request.visitor, next }));
  });

  scope.post('/sign-in', async (request, reply) => {
    const fields = (request.body ?? {}) as Record<string, unknown>;
    const next = safeNext(fields.next);
    const email = typeof fields.email === 'string' ? fields.email.trim() : '';
    const parsed = signInForm.safeParse(fields);
    if (!parsed.success) {
      const fieldErrors = Object.fromEntries(
        parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
      );
      return sendPage(reply.code(400), signInPage({ visitor: request.visitor, email, next, fieldErrors }));
    }
    // Counted before the password is checked, so parallel guesses get no more checks than the rule allows.
    const admission = await dashboard.signInThrottle.admitSignIn(request);
    if (!admission.allowed) {
      const message = `Too many failed attempts. Wait ${formatWait(admission.waitSeconds)} and try again.`;
      return refuse(
        reply,
        admission.waitSeconds,
        signInPage({ visitor: request.visitor, email, next, error: message }),
      );
    }
    const account = await dashboard.accounts.findByEmail(parsed.data.email);
    const stored = account?.passwordHash;
    // A missing account (or one made by the CLI, without a password) costs the same hashing work.
    const matches = await verifyPassword(parsed.data.password, stored ?? (await decoyHash()));
    if (!account || !stored || !matches) {
      return sendPage(reply.code(401), signInPage({ visitor: request.visitor, email, next, error: WRONG_CREDENTIALS }));
    }
    await dashboard.signInThrottle.signedIn(request, parsed.data.email);
    if (needsUpgrade(stored))
      await dashboard.accounts.upgradePasswordHash(account.id, stored, await hashPassword(parsed.data.password));
    await startSession(reply, dashboard, account, request.visitor.sessionId);
    return reply.redirect(next ?? '/dashboard', 303);
  });

  scope.post('/sign-out', async (request, reply) => {
    await endSession(reply, dashboard, request.visitor.sessionId);
    return reply.redirect('/', 303);
  });
}

/** 429 with the form, its message and how long to wait: no password was hashed or checked. */
function refuse(reply: FastifyReply, waitSeconds: number, page: Html): FastifyReply {
  return sendPage(reply.code(429).header('retry-after', waitSeconds), page);
}
