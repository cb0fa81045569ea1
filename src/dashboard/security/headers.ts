import type { FastifyInstance } from 'fastify';

/**
 * Headers on every dashboard response. No inline script is allowed anywhere (script-src 'self');
 * audio plays from signed /media URLs, which are on the public base URL: normally this origin,
 * but behind a proxy the two can differ, so that origin is allowed too.
 */
export function contentSecurityPolicy(baseUrl: string): string {
  const mediaOrigin = new URL(baseUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `media-src 'self' ${mediaOrigin}`,
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function applySecurityHeaders(scope: FastifyInstance, baseUrl: () => string): void {
  scope.addHook('onSend', async (_request, reply) => {
    reply.headers({
      'content-security-policy': contentSecurityPolicy(baseUrl()),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=()',
    });
  });
}
