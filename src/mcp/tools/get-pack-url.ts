import { z } from 'zod';
import { DomainError } from '../../errors.ts';
import { renditionPriceText } from '../../media/rendition-work.ts';
import { PACK_FETCHES_PER_ACCOUNT } from '../../packs/fetch.ts';
import { packResultSchema } from '../../packs/schemas.ts';
import { renditionChoiceOf } from '../../shapes/params.ts';
import { PACK_MAX_SOUNDS, PackQuotaError } from '../../packs/service.ts';
import { soundLinks } from '../sound-links.ts';
import { defineTool, readOnly } from '../tool.ts';
import { formatArguments, refineFormat, renditionArguments } from './arguments.ts';

export const getPackUrlTool = defineTool({
  name: 'get_pack_url',
  title: 'Get a download URL for a pack of sounds',
  description: `A signed URL (valid one hour, no header needed) to download up to ${PACK_MAX_SOUNDS} sounds as one ZIP: one file per `
    + 'sound named <name-slug>-<id>.<ext> (mp3 unless `format` says otherwise), manifest.json and manifest.csv (each file\'s id, name, format, sample rate, channels, duration, '
    + 'loudness, true peak, timing, category, tags and SHA-256) and LICENSE.txt (CC0 1.0). Costs one request of the daily quota per '
    + 'sound (this call is the first); each fetch of the URL pays for the renditions it makes, before making them '
    + `(stored ones cost nothing): ${renditionPriceText()}. At most ${PACK_FETCHES_PER_ACCOUNT} fetches per account at once. `
    + 'Counts one download '
    + 'per sound. loudness, trim and the format arguments (format: wav, flac, ogg, opus; sample_rate, channels, bit_depth) apply to '
    + 'every file, as get_download_url takes them. Use it instead of get_download_url once per sound when an agent wants several.',
  inputSchema: z.strictObject({
    ids: z.array(z.string().trim().min(1).max(200)).min(1).max(PACK_MAX_SOUNDS)
      .refine((ids) => new Set(ids).size === ids.length, 'each sound once: the list repeats an id')
      .describe(`The sound ids, 1 to ${PACK_MAX_SOUNDS}, each once, exactly as search results give them.`),
    ...renditionArguments,
    ...formatArguments,
  }).superRefine(refineFormat),
  outputSchema: packResultSchema,
  // Not idempotent: every call spends quota and counts downloads.
  annotations: readOnly({ title: 'Get a download URL for a pack of sounds', idempotent: false }),
  async run({ ids, ...rendition }, { services, owner }) {
    let pack;
    try {
      pack = await services.packs.prepare(
        { accountId: owner.account.id, keyId: owner.keyId, dailyQuota: owner.account.plan.dailyQuota },
        ids, renditionChoiceOf({ ...rendition, trim: rendition.trim === true ? 'true' : undefined }),
      );
    } catch (error) {
      if (error instanceof PackQuotaError) throw new DomainError('limit', `${error.message}. Ask for fewer sounds, or wait for the reset at ${new Date(error.decision.reset * 1000).toISOString()}.`);
      throw error;
    }
    const structured = {
      download_url: pack.downloadUrl, expires_at: new Date(pack.expiresAt * 1000).toISOString(), sounds: pack.sounds, estimated_bytes: pack.estimatedBytes,
    };
    const renditionsCost = pack.renditionsCost > 0 ? `, and ${pack.renditionsCost} more for its renditions when fetched now` : '';
    return {
      structured,
      text: `Pack of ${pack.sounds} sounds (${(rendition.format ?? 'mp3').toUpperCase()} files in a ZIP, about ${Math.ceil(pack.estimatedBytes / 1024)} KB, CC0; cost ${pack.cost} requests${renditionsCost}), `
        + `download before ${structured.expires_at}: ${structured.download_url}`,
      links: soundLinks(pack.items),
    };
  },
});
