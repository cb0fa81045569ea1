import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MediaServices } from '../services.ts';
import send from '@fastify/send';
import { isRendition } from './renditions.ts';
import type { Verdict } from './signing.ts';

interface MediaRequest {
  Params: { file: string };
  Querystring: { d?: string; exp?: string; kid?: string; sig?: string; loudness?: string; trim?: string };
}

/**
 * Serves the MP3 behind a signed URL. The signature is checked before anything else is looked
 * at; the file is found through the database by sound id, so nothing from the URL reaches a path.
 */
export function registerMediaRoute(app: FastifyInstance, services: MediaServices): void {
  const handler = (request: FastifyRequest<MediaRequest>, reply: FastifyReply) => serveMedia(request, reply, services);
  app.get<MediaRequest>('/media/:file', { exposeHeadRoute: false }, handler);
  app.head<MediaRequest>('/media/:file', handler);
}

async function serveMedia(request: FastifyRequest<MediaRequest>, reply: FastifyReply, services: MediaServices) {
  // Every URL handed out names `ID.mp3`: any other file name is a changed URL.
  const id = /^(.+)\.mp3$/.exec(request.params.file)?.[1] ?? '';
  const verdict: Verdict = id === '' ? { ok: false, reason: 'invalid' } : services.signer.verify(id, request.query);
  if (!verdict.ok) {
    const message = verdict.reason === 'expired' ? 'This link has expired' : 'This link is not valid';
    return reply.code(403).header('cache-control', 'no-store').send({ error: message });
  }
  const sound = await services.catalog.findById(id);
  if (!sound) return reply.code(404).send({ error: `Sound ${id} not found` });
  let fileKey = sound.fileKey;
  if (isRendition(verdict.choice)) {
    const rendition = await services.renditions.get(sound, verdict.choice);
    fileKey = rendition.fileKey;
    // What this file is, measured on it (the catalog's figures describe the original).
    reply.headers({
      'x-duration-seconds': String(rendition.facts.duration),
      'x-integrated-lufs': String(rendition.facts.loudness.integrated_lufs),
      'x-true-peak-dbtp': String(rendition.facts.loudness.true_peak_db),
    });
  }

  // @fastify/send does the file part (Range, If-Range, conditional GET, ETag, HEAD). Its path is
  // a file key from the database (or made from the content hash), never anything from the URL.
  const sendOptions = { root: services.files.root, contentType: false, cacheControl: false, dotfiles: 'deny', index: false } as const;
  let file = await send(request.raw, `/${fileKey}`, sendOptions);
  if (file.type === 'error' && file.statusCode === 416 && /^bytes=-\d*[1-9]\d*$/.test(request.headers.range ?? '')) {
    // A suffix longer than the file asks for all of it (RFC 9110, 14.1.2); @fastify/send refuses it.
    request.raw.headers.range = 'bytes=0-';
    file = await send(request.raw, `/${fileKey}`, sendOptions);
  }
  if (file.type === 'error') {
    const status = file.statusCode;
    if (status === 404) return reply.code(404).send({ error: `Sound ${id} not found` });
    if (status === 416) return reply.code(416).header('content-range', file.headers['Content-Range']).send();
    if (status === 412) return reply.code(412).send({ error: 'The file does not match the request\'s preconditions' });
    request.log.error({ err: file.metadata.error }, 'media file could not be read');
    return reply.code(500).send({ error: 'Internal server error' });
  }
  const secondsLeft = Math.max(0, verdict.expiresAt - Math.floor(services.clock() / 1000));
  reply.code(file.statusCode).headers(file.headers).headers({
    'content-type': 'audio/mpeg',
    // Never cached past the signature; private because the URL is a bearer credential.
    'cache-control': `private, max-age=${secondsLeft}`,
  });
  if (request.query.d === 'download') reply.header('content-disposition', contentDisposition(sound.name));
  if (file.statusCode === 304) reply.removeHeader('content-type');
  return reply.send(file.stream);
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 one (RFC 6266). */
function contentDisposition(name: string): string {
  const base = name.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().replace(/\s+/g, '-').toLowerCase() || 'sound';
  return `attachment; filename="${base}.mp3"; filename*=UTF-8''${encodeURIComponent(name)}.mp3`;
}
