import csrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * CSRF tokens by @fastify/csrf-protection: a secret per browser in an HttpOnly `_csrf` cookie,
 * and each token bound to what the browser's other cookies name (its session, or before sign-in
 * its visitor id) by an HMAC under the dashboard's own csrf-secret. A token planted from another
 * site is useless: the attacker has neither the victim's cookie secret nor their binding, and a
 * token taken before sign-in does not work after it.
 */
export function addCsrfProtection(scope: FastifyInstance, csrfSecret: string, secure: boolean): void {
  scope.register(csrfProtection, {
    getUserInfo: (request: FastifyRequest) => request.visitor.csrfBinding,
    csrfOpts: { hmacKey: csrfSecret },
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure },
  });
}

/** A token for this visitor's forms (sets the `_csrf` cookie the first time). */
export function csrfTokenFor(reply: FastifyReply, binding: string): string {
  return reply.generateCsrf({ userInfo: binding });
}

/** True when the error is the plugin's refusal of a missing or wrong token. */
export function isCsrfRefusal(error: { code?: string }): boolean {
  return error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET';
}
