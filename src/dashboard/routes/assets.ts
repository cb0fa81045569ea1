import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The dashboard's stylesheets, script and icon, served by @fastify/static from src/dashboard/assets
 * (dist/dashboard/assets once built): one route per file found at start and nothing else, so no
 * other path reaches the disk. Names carry no version, so caches check back hourly; the ETag and
 * Last-Modified make that check cheap.
 */
export async function registerAssetRoutes(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyStatic, {
    root: new URL('../assets/', import.meta.url).pathname,
    prefix: '/dashboard/assets/',
    wildcard: false,
    index: false,
    dotfiles: 'deny',
    maxAge: 3600 * 1000,
    decorateReply: false,
    // RFC 9239: JavaScript is text/javascript (send's table still says application/javascript).
    setHeaders: (response, file) => {
      if (file.endsWith('.js')) response.header('content-type', 'text/javascript; charset=utf-8');
    },
  });
}
