import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';
import { RenditionQuotaError } from '../media/rendition-payment.ts';
import { quotaRefused } from '../media/route.ts';
import { PACK_FILE, type MediaSigner, type PackQuery, type PackVerdict } from '../media/signing.ts';
import { MediaStoreError } from '../media/store.ts';
import { PACK_FETCH_RETRY_SECONDS, PackFetchesBusyError } from './fetch.ts';
import { PackPayerGoneError, type PackFetch, type PackService } from './service.ts';

interface PackRequest {
  Params: { file: string };
  Querystring: PackQuery;
}

/** Seconds a client is asked to wait when the media store does not answer. */
const STORE_RETRY_SECONDS = 10;

/**
 * Serves the ZIP behind a signed pack URL, beside the media route: the signature first, then the
 * sounds (a sound removed since the URL was made is a 404 naming it), then a place among the
 * account's fetches (429 past PACK_FETCHES_PER_ACCOUNT at once) and the price of the renditions
 * this fetch will make (429 with the quota's body and headers when the account cannot pay, before
 * anything is made), then the ZIP as it is written. A GET only: a HEAD would have to build the ZIP
 * to know its headers.
 */
export function registerPackRoute(app: FastifyInstance, services: PackRouteServices): void {
  app.get<PackRequest>('/media/packs/:file', { exposeHeadRoute: false }, (request, reply) =>
    servePack(request, reply, services),
  );
}

type PackRouteServices = { packs: PackService; signer: MediaSigner; clock: () => number };

async function servePack(request: FastifyRequest<PackRequest>, reply: FastifyReply, services: PackRouteServices) {
  let verdict: PackVerdict =
    request.params.file === PACK_FILE ? services.signer.verifyPack(request.query) : { ok: false, reason: 'invalid' };
  // Only the query `signPack` wrote is served, as on the media route.
  if (verdict.ok && rawQueryOf(request.raw.url) !== verdict.canonicalQuery) verdict = { ok: false, reason: 'invalid' };
  if (!verdict.ok) {
    const message = verdict.reason === 'expired' ? 'This link has expired' : 'This link is not valid';
    return reply.code(403).header('cache-control', 'no-store').send({ error: message });
  }
  const gone = new AbortController();
  let fetch: PackFetch | undefined;
  // The ZIP has ended or the client left (before its end: stop reading and making files): the fetch ends.
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
    fetch?.end().catch((error: unknown) => request.log.error({ err: error }, 'ending a pack fetch failed'));
  });
  let sounds: Awaited<ReturnType<typeof services.packs.findAll>>;
  try {
    sounds = await services.packs.findAll(verdict.ids);
  } catch (error) {
    if (error instanceof DomainError)
      return reply.code(404).header('cache-control', 'no-store').send({ error: error.message });
    if (error instanceof MediaStoreError) return storeDown(reply);
    throw error;
  }
  // The account pays for the renditions (and the sprite) and holds the place; a pack of the catalog's
  // own files names none (signing.ts signs the account only with something to pay for), so its URL's
  // signature stands for it.
  const holder = verdict.accountId ?? `url:${request.query.sig}`;
  try {
    fetch = await services.packs.startFetch(holder, verdict.accountId, sounds, verdict.choice, verdict.options);
  } catch (error) {
    if (error instanceof PackFetchesBusyError) {
      return reply
        .code(429)
        .headers({ 'retry-after': String(PACK_FETCH_RETRY_SECONDS), 'cache-control': 'no-store' })
        .send({
          error:
            `This account is downloading ${error.limit} packs already, as many as it may at once; ` +
            'try again when one has ended',
        });
    }
    if (error instanceof RenditionQuotaError) {
      return quotaRefused(reply, error, services.clock(), 'the renditions of this pack not stored yet');
    }
    if (error instanceof PackPayerGoneError) {
      return reply.code(403).header('cache-control', 'no-store').send({ error: 'This link is not valid' });
    }
    if (error instanceof MediaStoreError) return storeDown(reply);
    throw error;
  }
  if (gone.signal.aborted) {
    // The client left while the fetch started: nobody is there to answer.
    await fetch.end();
    return reply.code(499).send({ error: 'Client closed the request' });
  }
  const zip = services.packs.stream(sounds, verdict.choice, fetch, gone.signal, verdict.options);
  zip.once('error', (error) => {
    // Headers are gone already: the connection is cut, so the client sees an incomplete download,
    // never a short ZIP taken for whole.
    if (!gone.signal.aborted) request.log.error({ err: error }, 'pack failed while streaming');
  });
  return reply
    .headers({
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="sound-pack-${sounds.length}.zip"`,
      // Built for this request and behind a bearer URL: nothing to keep.
      'cache-control': 'private, no-store',
    })
    .send(zip);
}

function storeDown(reply: FastifyReply) {
  return reply
    .code(503)
    .headers({ 'retry-after': String(STORE_RETRY_SECONDS), 'cache-control': 'no-store' })
    .send({ error: 'The media store does not answer; try again shortly' });
}

/** The query string as the client sent it, undecoded. */
function rawQueryOf(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at < 0 ? '' : url!.slice(at + 1);
}
