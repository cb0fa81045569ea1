import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import { parseRange } from './range.ts';

interface MediaRequest {
  Params: { file: string };
  Querystring: { d?: string; exp?: string; kid?: string; sig?: string };
}

/**
 * Serves the MP3 behind a signed URL. The signature is checked before anything else is looked
 * at; the file is found through the database by sound id, so nothing from the URL reaches a path.
 */
export function registerMediaRoute(app: FastifyInstance, services: Services): void {
  const handler = (request: FastifyRequest<MediaRequest>, reply: FastifyReply) => serveMedia(request, reply, services);
  app.get<MediaRequest>('/media/:file', { exposeHeadRoute: false }, handler);
  app.head<MediaRequest>('/media/:file', handler);
}

async function serveMedia(request: FastifyRequest<MediaRequest>, reply: FastifyReply, services: Services) {
  const id = request.params.file.replace(/\.mp3$/, '');
  const verdict = services.signer.verify(id, request.query);
  if (!verdict.ok) {
    const message = verdict.reason === 'expired' ? 'This link has expired' : 'This link is not valid';
    return reply.code(403).header('cache-control', 'no-store').send({ error: message });
  }
  const sound = await services.catalog.findById(id);
  const size = sound ? await services.files.size(sound.fileKey) : null;
  if (!sound || size === null) return reply.code(404).send({ error: `Sound ${id} not found` });

  const secondsLeft = Math.max(0, verdict.expiresAt - Math.floor(services.clock() / 1000));
  const etag = `"${sound.contentHash.slice(0, 32)}"`;
  reply.headers({
    'content-type': 'audio/mpeg',
    'accept-ranges': 'bytes',
    etag,
    // Never cached past the signature; private because the URL is a bearer credential.
    'cache-control': `private, max-age=${secondsLeft}`,
  });
  if (request.query.d === 'download') {
    reply.header('content-disposition', contentDisposition(sound.name));
  }
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();

  const ifRange = request.headers['if-range'];
  const range = parseRange(request.headers.range, size, Array.isArray(ifRange) ? ifRange[0] : ifRange, etag);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${size}`).send();
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  reply.header('content-length', end - start + 1);
  if (request.method === 'HEAD' || size === 0) return reply.send();
  return reply.send(services.files.read(sound.fileKey, { start, end }));
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 one (RFC 6266). */
function contentDisposition(name: string): string {
  const base = name.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().replace(/\s+/g, '-').toLowerCase() || 'sound';
  return `attachment; filename="${base}.mp3"; filename*=UTF-8''${encodeURIComponent(name)}.mp3`;
}
