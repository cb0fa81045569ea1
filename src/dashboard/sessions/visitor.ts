import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_LIFETIME_SECONDS } from '../../accounts/sessions.ts';
import type { Account } from '../../accounts/store.ts';
import type { Dashboard } from '../context.ts';
import { clearCookie, setCookie } from '../security/cookies.ts';
import { csrfTokenFor } from '../security/csrf.ts';
import { Redirect } from '../routes/page-errors.ts';

export const SESSION_COOKIE = 'sc_session';
/** Binds the CSRF token of the sign-up and sign-in forms before there is a session. */
export const VISITOR_COOKIE = 'sc_visitor';
const VISITOR_LIFETIME_SECONDS = 7 * 24 * 3600;
const TOKEN_PATTERN = /^[\w-]{43}$/;

/** Who is asking: a signed-in account or an anonymous visitor, and the CSRF token for their forms. */
export interface Visitor {
  account: Account | null;
  /** The session id from the cookie, when it names a live session. */
  sessionId: string | null;
  csrfToken: string;
  csrfBinding: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    visitor: Visitor;
  }
}

export function addVisitorHooks(scope: FastifyInstance, dashboard: Dashboard): void {
  scope.decorateRequest('visitor', null as unknown as Visitor);
  scope.addHook('onRequest', async (request, reply) => {
    request.visitor = await identify(request, reply, dashboard);
  });
  // Every POST changes something, so every POST must carry the token of this browser's cookie.
  scope.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST') return done();
    scope.csrfProtection(request, reply, done);
  });
}

async function identify(request: FastifyRequest, reply: FastifyReply, dashboard: Dashboard): Promise<Visitor> {
  const sessionId = request.cookies[SESSION_COOKIE];
  if (sessionId && TOKEN_PATTERN.test(sessionId)) {
    const accountId = await dashboard.sessions.accountIdOf(sessionId);
    const account = accountId ? await dashboard.accounts.findById(accountId) : null;
    if (account) return visitorOf(reply, account, sessionId, `session:${sessionId}`);
  }
  if (sessionId) clearCookie(reply, SESSION_COOKIE, dashboard.secureCookies);
  let visitorId = request.cookies[VISITOR_COOKIE];
  if (!visitorId || !TOKEN_PATTERN.test(visitorId)) {
    visitorId = randomBytes(32).toString('base64url');
    setCookie(reply, VISITOR_COOKIE, visitorId, VISITOR_LIFETIME_SECONDS, dashboard.secureCookies);
  }
  return visitorOf(reply, null, null, `visitor:${visitorId}`);
}

function visitorOf(reply: FastifyReply, account: Account | null, sessionId: string | null, binding: string): Visitor {
  return { account, sessionId, csrfBinding: binding, csrfToken: csrfTokenFor(reply, binding) };
}

/** Starts a session under a brand-new id (never one the browser brought along: no fixation). */
export async function startSession(
  reply: FastifyReply,
  dashboard: Dashboard,
  account: Account,
  previous: string | null,
): Promise<void> {
  if (previous) await dashboard.sessions.end(previous);
  const session = await dashboard.sessions.create(account.id);
  setCookie(reply, SESSION_COOKIE, session.id, SESSION_LIFETIME_SECONDS, dashboard.secureCookies);
}

export async function endSession(reply: FastifyReply, dashboard: Dashboard, sessionId: string | null): Promise<void> {
  if (sessionId) await dashboard.sessions.end(sessionId);
  clearCookie(reply, SESSION_COOKIE, dashboard.secureCookies);
}

/** The signed-in account, or a redirect to the sign-in page that comes back here afterwards. */
export function requireAccount(request: FastifyRequest): Account {
  const { account } = request.visitor;
  if (!account) throw new Redirect(`/dashboard/sign-in?next=${encodeURIComponent(request.url.split('?')[0]!)}`);
  return account;
}
