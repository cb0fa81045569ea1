import { z } from 'zod';
import { DomainError } from '../../errors.ts';
import { PACK_FETCHES_PER_ACCOUNT } from '../../packs/fetch.ts';
import { renditionChoiceOf } from '../../shapes/params.ts';
import { packOptionsArguments, packOptionsOf } from '../../packs/schemas.ts';
import { PACK_MAX_SOUNDS, PackQuotaError } from '../../packs/service.ts';
import { SpriteTooLongError } from '../../packs/sprite.ts';
import { soundLinks } from '../sound-links.ts';
import { defineTool, readOnly } from '../tool.ts';
import { formatArguments, refineFormat, renditionArguments } from './arguments.ts';
import { describedIn } from './format-descriptions.ts';

export const getPackUrlTool = defineTool({
  name: 'get_pack_url',
  title: 'Get a pack download URL',
  description:
    `A signed URL (one hour) to download up to ${PACK_MAX_SOUNDS} sounds as one ZIP with a manifest, instead of ` +
    'get_download_url per sound. Costs one request and one download per sound, plus new renditions when fetched; ' +
    `${PACK_FETCHES_PER_ACCOUNT} fetches at once per account.`,
  inputSchema: z
    .strictObject({
      ids: z
        .array(z.string().trim().min(1).max(200))
        .min(1)
        .max(PACK_MAX_SOUNDS)
        .refine((ids) => new Set(ids).size === ids.length, 'each sound once: the list repeats an id')
        .describe(`The sound ids, 1 to ${PACK_MAX_SOUNDS}, each once.`),
      ...describedIn('get_stream_url', { ...renditionArguments, ...formatArguments }),
      ...packOptionsArguments,
    })
    .superRefine(refineFormat),
  // Not idempotent: every call spends quota and counts downloads.
  annotations: readOnly({ idempotent: false }),
  async run({ ids, naming, sprite, ...rendition }, { services, owner }) {
    let pack: Awaited<ReturnType<typeof services.packs.prepare>>;
    try {
      pack = await services.packs.prepare(
        { accountId: owner.account.id, keyId: owner.keyId, dailyQuota: owner.account.plan.dailyQuota },
        ids,
        renditionChoiceOf({ ...rendition, trim: rendition.trim === true ? 'true' : undefined }),
        packOptionsOf({ naming, sprite }),
      );
    } catch (error) {
      if (error instanceof PackQuotaError)
        throw new DomainError(
          'limit',
          `${error.message}. Ask for fewer sounds, or wait for the reset at ` +
            `${new Date(error.decision.reset * 1000).toISOString()}.`,
        );
      if (error instanceof SpriteTooLongError) throw new DomainError('limit', error.message);
      throw error;
    }
    const structured = {
      download_url: pack.downloadUrl,
      expires_at: new Date(pack.expiresAt * 1000).toISOString(),
      sounds: pack.sounds,
      estimated_bytes: pack.estimatedBytes,
    };
    const renditionsCost =
      pack.renditionsCost > 0 ? `, and ${pack.renditionsCost} more for its renditions when fetched now` : '';
    return {
      structured,
      text:
        `Pack of ${pack.sounds} sounds (${(rendition.format ?? 'mp3').toUpperCase()} files` +
        `${sprite ? ' and an audio sprite' : ''} in a ZIP, about ` +
        `${Math.ceil(pack.estimatedBytes / 1024)} KB, CC0; cost ${pack.cost} requests${renditionsCost}), ` +
        `download before ${structured.expires_at}: ${structured.download_url}`,
      links: soundLinks(pack.items),
    };
  },
});
