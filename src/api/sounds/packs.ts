import { z } from 'zod';
import { PACK_MAX_SOUNDS, PackQuotaError } from '../../packs/service.ts';
import { HttpError } from '../../shapes/answers.ts';
import { EXTENSION, formatQuery, refineFormat, renditionChoiceOf, renditionQuery } from '../../shapes/params.ts';
import { renditionPriceText } from '../../media/rendition-work.ts';
import { PACK_FETCHES_PER_ACCOUNT } from '../../packs/fetch.ts';
import { packIds, packOptionsOf, packOptionsQuery, packResultSchema } from '../../packs/schemas.ts';
import { SpriteTooLongError } from '../../packs/sprite.ts';
import { defineEndpoint, invalidQuery } from '../endpoint.ts';
import { authErrors, errorResponses } from './responses.ts';
import { rateLimitHeaders } from '../../quota/quota.ts';

export const getPack = defineEndpoint({
  method: 'GET',
  url: '/api/v1/packs',
  operationId: 'getPack',
  summary: 'Get a download URL for a pack of sounds',
  description:
    'One signed URL (valid one hour) for a ZIP of up to 100 sounds: one file per sound named ' +
    '<name-slug>-<id>.<ext>, manifest.json and manifest.csv (id, name, file, format, sample rate, channels, ' +
    'duration, loudness, true peak, timing, category, tags and the SHA-256 of each file as delivered) and ' +
    "LICENSE.txt (CC0 1.0). Every file is delivered alike: the catalog's MP3, or the rendition that loudness, " +
    'trim and the format parameters ask for, with the same rules (and 400s) as the download endpoint. ' +
    '`naming=ucs` names the files the UCS way; `sprite=true` adds an audio sprite for game engines. This call ' +
    'costs one request of the daily quota per sound (it is the first of them; 429 when the quota cannot cover ' +
    'them) and counts one download per sound. Each fetch of the URL pays for the renditions it makes, before ' +
    'making any (429 with the quota body and X-RateLimit headers when the quota cannot ' +
    `cover them; stored ones cost nothing): ${renditionPriceText()}. An account fetches at most ` +
    `${PACK_FETCHES_PER_ACCOUNT} packs at once (429 with Retry-After past that).`,
  tag: 'extensions',
  security: 'apiKey',
  // The download endpoint's parameters and combination rules (shapes/params.ts), applied to every file.
  query: z
    .strictObject({
      ids: packIds.describe(`Comma-separated sound ids, 1 to ${PACK_MAX_SOUNDS}, each once.`).meta(EXTENSION),
      ...renditionQuery.shape,
      ...formatQuery.shape,
      ...packOptionsQuery.shape,
    })
    .superRefine(refineFormat),
  responses: {
    200: { description: 'Signed pack URL.', schema: z.object({ data: packResultSchema }) },
    400: errorResponses[400],
    404: { description: 'Sounds not found: the message names every unknown id.', schema: errorResponses[404].schema },
    ...authErrors,
  },
  async handler({ query, services, owner, reply }) {
    const { ids, naming, sprite, ...rendition } = query;
    try {
      const pack = await services.packs.prepare(
        { accountId: owner!.account.id, keyId: owner!.keyId, dailyQuota: owner!.account.plan.dailyQuota },
        ids,
        renditionChoiceOf(rendition),
        packOptionsOf({ naming, sprite }),
      );
      // The headers tell what is left after the whole pack, not after the call alone.
      if (pack.decision) reply.headers(rateLimitHeaders(pack.decision));
      return {
        data: {
          download_url: pack.downloadUrl,
          expires_at: new Date(pack.expiresAt * 1000).toISOString(),
          sounds: pack.sounds,
          estimated_bytes: pack.estimatedBytes,
        },
      };
    } catch (error) {
      if (error instanceof SpriteTooLongError) throw invalidQuery([{ param: 'sprite', message: error.message }]);
      if (!(error instanceof PackQuotaError)) throw error;
      const retryAfter = Math.max(1, error.decision.reset - Math.floor(services.clock() / 1000));
      throw new HttpError(
        429,
        { error: error.message, limit: error.decision.limit, reset: error.decision.reset },
        { ...rateLimitHeaders(error.decision), 'retry-after': retryAfter },
      );
    }
  },
});
