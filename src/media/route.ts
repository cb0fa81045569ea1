import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService } from '../accounts/service.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { StoredSound } from '../catalog/sound.ts';
import type { Meter } from '../metering/meter.ts';
import { Readable } from 'node:stream';
import { planDelivery } from './delivery.ts';
import { rateLimitHeaders } from '../quota/quota.ts';
import {
  contentTypeOf,
  extensionOf,
  isRendition,
  RenditionsBusyError,
  RenditionTimeoutError,
  type RenditionChoice,
  type RenditionFacts,
  type RenditionService,
} from './renditions.ts';
import { RenditionCharge, RenditionQuotaError } from './rendition-payment.ts';
import type { MediaQuery, MediaSigner, Verdict } from './signing.ts';
import { MediaMissingError, MediaStoreError, type MediaStore } from './store.ts';
import { deliveredFile, type DeliveredFile, readDelivered, tagsForDelivery } from './tagged-file.ts';

/** The signed media route: the signature, the sound's file, and the quota a new rendition is paid from. */
export interface MediaServices {
  catalog: CatalogService;
  signer: MediaSigner;
  files: MediaStore;
  renditions: RenditionService;
  accounts: AccountService;
  meter: Meter;
  clock: () => number;
}

interface MediaRequest {
  Params: { file: string };
  Querystring: MediaQuery;
}

/** Seconds a client refused because renditions are busy is asked to wait. */
const BUSY_RETRY_SECONDS = 5;
/** Seconds a client is asked to wait when the media store does not answer. */
const STORE_RETRY_SECONDS = 10;
/** Seconds a client whose rendition ran past its time limit is asked to wait: the machine may be less busy then. */
const TIMEOUT_RETRY_SECONDS = 60;

/** The account a rendition URL names is gone: nobody can pay for it. */
class NoPayerError extends Error {}

/**
 * Serves the MP3 behind a signed URL. The signature is checked before anything else is looked
 * at; the file is found through the database by sound id, so nothing from the URL reaches a path.
 */
export function registerMediaRoute(app: FastifyInstance, services: MediaServices): void {
  const handler = (request: FastifyRequest<MediaRequest>, reply: FastifyReply) =>
    serveMedia(request, reply, services).catch((error: unknown) => {
      // The store is down or refuses us: the client may try again; the rest of the service answers on.
      if (!(error instanceof MediaStoreError)) throw error;
      request.log.warn({ err: error }, 'media store does not answer');
      return reply
        .code(503)
        .headers({ 'retry-after': String(STORE_RETRY_SECONDS), 'cache-control': 'no-store' })
        .send({ error: 'The media store does not answer; try again shortly' });
    });
  app.get<MediaRequest>('/media/:file', { exposeHeadRoute: false }, handler);
  app.head<MediaRequest>('/media/:file', handler);
}

async function serveMedia(request: FastifyRequest<MediaRequest>, reply: FastifyReply, services: MediaServices) {
  // Every URL handed out names `ID.<the format's extension>`: any other file name is a changed URL.
  const named = /^(.+)\.(\w+)$/.exec(request.params.file);
  const id = named?.[1] ?? '';
  let verdict: Verdict = id === '' ? { ok: false, reason: 'invalid' } : services.signer.verify(id, request.query);
  // Only the query `sign` wrote is served: another spelling of it would be another cache key.
  if (verdict.ok && rawQueryOf(request.raw.url) !== verdict.canonicalQuery) verdict = { ok: false, reason: 'invalid' };
  if (verdict.ok && named?.[2] !== extensionOf(verdict.choice)) verdict = { ok: false, reason: 'invalid' };
  if (!verdict.ok) {
    const message = verdict.reason === 'expired' ? 'This link has expired' : 'This link is not valid';
    return reply.code(403).header('cache-control', 'no-store').send({ error: message });
  }
  const sound = await services.catalog.findById(id);
  if (!sound) return reply.code(404).send({ error: `Sound ${id} not found` });
  if (!isRendition(verdict.choice))
    return sendFile(request, reply, services, {
      fileKey: sound.fileKey,
      sound,
      expiresAt: verdict.expiresAt,
      choice: {},
    });

  const { accountId, choice } = verdict;
  // Paid once per rendition made, by the request whose job it is, at its price; one already stored costs nothing.
  const pay = async (price: number) => {
    const account = accountId === null ? null : await services.accounts.findById(accountId);
    if (!account) throw new NoPayerError();
    const payer = { accountId: account.id, keyId: null, dailyQuota: account.plan.dailyQuota };
    return RenditionCharge.take(services.meter, services.clock, payer, price);
  };
  const gone = new AbortController();
  reply.raw.once('close', () => gone.abort());
  // Twice at most: a file removed (to stay under the bound) between finding it and opening it is made again.
  for (let attempt = 1; ; attempt++) {
    let rendition: { fileKey: string; facts: RenditionFacts };
    try {
      rendition = await services.renditions.get(sound, choice, { pay, signal: gone.signal });
    } catch (error) {
      if (error instanceof RenditionsBusyError) {
        return reply
          .code(503)
          .headers({ 'retry-after': String(BUSY_RETRY_SECONDS), 'cache-control': 'no-store' })
          .send({ error: 'Too many renditions are being made; try again shortly' });
      }
      if (error instanceof NoPayerError) {
        return reply.code(403).header('cache-control', 'no-store').send({ error: 'This link is not valid' });
      }
      if (error instanceof RenditionQuotaError) return quotaRefused(reply, error, services.clock(), 'this rendition');
      if (error instanceof RenditionTimeoutError) {
        request.log.warn({ err: error, sound: sound.id }, 'rendition stopped at its time limit');
        return reply
          .code(503)
          .headers({ 'retry-after': String(TIMEOUT_RETRY_SECONDS), 'cache-control': 'no-store' })
          .send({ error: 'Making this rendition took too long and was stopped; nothing was charged. Try again later' });
      }
      // The client left before its rendition started: nobody is there to answer.
      if (gone.signal.aborted) return reply.code(499).send({ error: 'Client closed the request' });
      throw error;
    }
    // What this file is, measured on it (the catalog's figures describe the original).
    reply.headers({
      'x-duration-seconds': String(rendition.facts.duration),
      'x-integrated-lufs': String(rendition.facts.loudness.integrated_lufs),
      'x-true-peak-dbtp': String(rendition.facts.loudness.true_peak_db),
    });
    const sent = await sendFile(
      request,
      reply,
      services,
      { fileKey: rendition.fileKey, sound, expiresAt: verdict.expiresAt, choice },
      attempt === 1,
    );
    if (sent !== FILE_GONE) return sent;
  }
}

/**
 * 429 for a rendition (or a pack's renditions) its account cannot pay for: the API's quota body
 * and rate-limit headers, and Retry-After until the reset.
 */
export function quotaRefused(reply: FastifyReply, error: RenditionQuotaError, now: number, what: string) {
  const { decision, price } = error;
  return reply
    .code(429)
    .headers({
      ...rateLimitHeaders(decision),
      'retry-after': String(Math.max(1, decision.reset - Math.floor(now / 1000))),
      'cache-control': 'no-store',
    })
    .send({
      error:
        `Making ${what} costs ${price} requests, more than the account's daily quota has left ` +
        `(${decision.remaining})`,
      limit: decision.limit,
      reset: decision.reset,
    });
}

/** The query string as the client sent it, undecoded. */
function rawQueryOf(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at < 0 ? '' : url!.slice(at + 1);
}

const FILE_GONE = Symbol('file gone');

/** What one answer delivers: a stored file (the sound's or a rendition) in the sound's name and tags. */
interface FileToSend {
  fileKey: string;
  sound: StoredSound;
  expiresAt: number;
  choice: RenditionChoice;
}

/**
 * Answers with the stored file under a new head of the sound's tags (tagged-file.ts): sizes,
 * ranges and the ETag are the delivered file's. A tagged file is always sent from here, even with
 * MEDIA_REDIRECT: the store holds the untagged file, so only a file delivered as stored (a head
 * not of its format) is redirected to the store.
 */
async function sendFile(
  request: FastifyRequest<MediaRequest>,
  reply: FastifyReply,
  services: MediaServices,
  { fileKey, sound, expiresAt, choice }: FileToSend,
  mayBeGone = false,
) {
  const id = request.params.file.replace(/\.\w+$/, '');
  const notFound = () => (mayBeGone ? FILE_GONE : reply.code(404).send({ error: `Sound ${id} not found` }));
  // The file key comes from the database (or is made from the content hash), never from the URL.
  const stat = await services.files.stat(fileKey);
  if (!stat) return notFound();
  let file: DeliveredFile;
  try {
    const tags = await tagsForDelivery(services.files, sound, choice, services.signer.publicBase());
    file = await deliveredFile(services.files, fileKey, stat.size, choice.format ?? 'mp3', tags);
  } catch (error) {
    if (error instanceof MediaMissingError) return notFound();
    throw error;
  }
  const secondsLeft = Math.max(0, expiresAt - Math.floor(services.clock() / 1000));
  const disposition = request.query.d === 'download' ? contentDisposition(sound.name, extensionOf(choice)) : undefined;
  // A presigned URL answers GET only (its method is signed): a HEAD is answered here.
  const location =
    request.method === 'GET' && file.head === null
      ? await services.files.redirectUrl(fileKey, secondsLeft, disposition)
      : null;
  if (location !== null) return reply.code(302).headers({ location, 'cache-control': 'no-store' }).send();
  const delivery = planDelivery(request.method, request.headers, { ...stat, size: file.size, variant: file.variant });
  if (delivery.status === 412)
    return reply.code(412).send({ error: "The file does not match the request's preconditions" });
  if (delivery.status === 416) return reply.code(416).headers(delivery.headers).send();
  let body: Readable = Readable.from([]);
  if (delivery.range) {
    try {
      body = await readDelivered(services.files, fileKey, file, delivery.range);
    } catch (error) {
      if (error instanceof MediaMissingError) return notFound();
      throw error;
    }
  }
  reply
    .code(delivery.status)
    .headers(delivery.headers)
    .headers({
      'content-type': contentTypeOf(choice),
      // Never cached past the signature; private because the URL is a bearer credential.
      'cache-control': `private, max-age=${secondsLeft}`,
    });
  if (disposition !== undefined) reply.header('content-disposition', disposition);
  if (delivery.status === 304) reply.removeHeader('content-type');
  return reply.send(body);
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 one (RFC 6266). */
function contentDisposition(name: string, extension: string): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .toLowerCase() || 'sound';
  return `attachment; filename="${base}.${extension}"; filename*=UTF-8''${encodeURIComponent(name)}.${extension}`;
}
