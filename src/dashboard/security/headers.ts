import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Headers on every dashboard response, by @fastify/helmet. No inline script is allowed anywhere
 * (script-src 'self'); audio plays from signed /media URLs, which are on the public base URL:
 * normally this origin, but behind a proxy the two can differ, so that origin is allowed too.
 * HSTS only when the public address is https (on plain http it would only be ignored).
 */
export function applySecurityHeaders(scope: FastifyInstance, baseUrl: () => string, https: boolean): void {
  scope.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        mediaSrc: ["'self'", () => new URL(baseUrl()).origin],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https,
  });
  // Helmet has no option for this one.
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
  });
}
