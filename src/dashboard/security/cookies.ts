import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The dashboard's cookies, through @fastify/cookie (registered in the dashboard's own scope: the
 * API never parses cookies). Always HttpOnly (scripts never see them), SameSite=Lax (no cross-site
 * POST carries them), Path=/, and Secure when the public address is https.
 */
export function addCookieSupport(scope: FastifyInstance): void {
  scope.register(cookie);
}

export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
  secure: boolean,
): void {
  reply.setCookie(name, value, { path: '/', maxAge: maxAgeSeconds, httpOnly: true, sameSite: 'lax', secure });
}

export function clearCookie(reply: FastifyReply, name: string, secure: boolean): void {
  setCookie(reply, name, '', 0, secure);
}
