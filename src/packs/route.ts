import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';
import { PACK_FILE, type MediaSigner, type PackQuery, type PackVerdict } from '../media/signing.ts';
import { MediaStoreError } from '../media/store.ts';
import type { PackService } from './service.ts';

interface PackRequest {
  Params: { file: string };
  Querystring: PackQuery;
}

/** Seconds a client is asked to wait when the media store does not answer. */
const STORE_RETRY_SECONDS = 10;

/**
 * Serves the ZIP behind a signed pack URL, beside the media route: the signature first, then the
 * sounds (a sound removed since the URL was made is a 404 naming it), then the ZIP as it is
 * written. Everything was paid and counted when the URL was made. A GET only: a HEAD would have
 * to build the ZIP to know its headers.
 */
export function registerPackRoute(app: FastifyInstance, services: { packs: PackService; signer: MediaSigner }): void {
  app.get<PackRequest>('/media/packs/:file', { exposeHeadRoute: false }, (request, reply) => servePack(request, reply, services));
}

async function servePack(request: FastifyRequest<PackRequest>, reply: FastifyReply, services: { packs: PackService; signer: MediaSigner }) {
  let verdict: PackVerdict = request.params.file === PACK_FILE ? services.signer.verifyPack(request.query) : { ok: false, reason: 'invalid' };
  // Only the query `signPack` wrote is served, as on the media route.
  if (verdict.ok && rawQueryOf(request.raw.url) !== verdict.canonicalQuery) verdict = { ok: false, reason: 'invalid' };
  if (!verdict.ok) {
    const message = verdict.reason === 'expired' ? 'This link has expired' : 'This link is not valid';
    return reply.code(403).header('cache-control', 'no-store').send({ error: message });
  }
  let sounds;
  try {
    sounds = await services.packs.findAll(verdict.ids);
  } catch (error) {
    if (error instanceof DomainError) return reply.code(404).header('cache-control', 'no-store').send({ error: error.message });
    if (error instanceof MediaStoreError) return storeDown(reply);
    throw error;
  }
  const gone = new AbortController();
  // The client left before the ZIP's end: stop reading and making files.
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  const zip = services.packs.stream(sounds, verdict.choice, gone.signal);
  zip.once('error', (error) => {
    // Headers are gone already: the connection is cut, so the client sees an incomplete download, never a short ZIP taken for whole.
    if (!gone.signal.aborted) request.log.error({ err: error }, 'pack failed while streaming');
  });
  return reply.headers({
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="sound-pack-${sounds.length}.zip"`,
    // Built for this request and behind a bearer URL: nothing to keep.
    'cache-control': 'private, no-store',
  }).send(zip);
}

function storeDown(reply: FastifyReply) {
  return reply.code(503).headers({ 'retry-after': String(STORE_RETRY_SECONDS), 'cache-control': 'no-store' })
    .send({ error: 'The media store does not answer; try again shortly' });
}

/** The query string as the client sent it, undecoded. */
function rawQueryOf(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at < 0 ? '' : url!.slice(at + 1);
}
