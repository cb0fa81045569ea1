import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/** The dashboard's only static files; anything not listed here is a 404, so no path reaches the disk. */
const ASSET_TYPES: Record<string, string> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'phone.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function loadAssets(): Map<string, Asset> {
  const folder = new URL('../assets/', import.meta.url);
  return new Map(Object.entries(ASSET_TYPES).map(([name, type]) => {
    const body = readFileSync(new URL(name, folder));
    return [name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` }];
  }));
}

export function registerAssetRoutes(scope: FastifyInstance): void {
  const assets = loadAssets();
  scope.get<{ Params: { file: string } }>('/dashboard/assets/:file', async (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    // Names carry no version, so caches check back hourly; the ETag makes that check cheap.
    reply.type(asset.type).header('cache-control', 'public, max-age=3600').header('etag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.send(asset.body);
  });
}
