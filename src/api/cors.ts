import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * What a web page on another site may fetch: the public sample endpoints, the signed media URLs
 * (a page can play or decode the sound it was handed) and the OpenAPI document. Nothing else:
 * an API key belongs on a server, never in a page's script, and the dashboard is for its own
 * pages only. Each pattern matches the paths of exactly one of these routes (a segment never
 * holds a slash), so no other route is opened by a look-alike path.
 */
const CROSS_ORIGIN_PATHS = [
  /^\/api\/v1\/sounds\/sample$/,
  /^\/api\/v1\/sounds\/sample\/[^/]+\/stream$/,
  /^\/media\/[^/]+$/,
  /^\/openapi\.(json|yaml)$/,
];

/** Any origin, without credentials (nothing public depends on a cookie or a key). */
const OPEN: FastifyCorsOptions = {
  origin: '*',
  methods: ['GET', 'HEAD'],
  // What a media player sends (ranges, revalidation) and a caller's trace id.
  allowedHeaders: ['Range', 'If-Range', 'If-None-Match', 'If-Modified-Since', 'X-Request-Id'],
  // What a page may read besides the always-visible ones: the media route's file and rendition
  // headers (media/route.ts) and the request id.
  exposedHeaders: [
    'Accept-Ranges',
    'Content-Range',
    'Content-Disposition',
    'ETag',
    'X-Request-Id',
    'X-Duration-Seconds',
    'X-Integrated-LUFS',
    'X-True-Peak-dBTP',
  ],
  maxAge: 3600,
  // An OPTIONS request that is not a preflight gets the same 204, not a text/plain 400.
  strictPreflight: false,
};

/** No CORS headers at all; a preflight falls through to the usual 404, and the browser stops. */
const CLOSED: FastifyCorsOptions = { origin: false };

/**
 * @fastify/cors in the scope it is given (app.ts gives it the cross-origin routes alone), opened
 * per request for the public paths only. Its preflight route answers OPTIONS for every path, so
 * the path decides there too.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback) => callback(null, isCrossOriginPath(request.url) ? OPEN : CLOSED),
  });
}

function isCrossOriginPath(url: string): boolean {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  return CROSS_ORIGIN_PATHS.some((pattern) => pattern.test(path));
}
