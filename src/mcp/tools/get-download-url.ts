import { z } from 'zod';
import { downloadResultSchema } from '../../shapes/schemas.ts';
import { notFound } from '../../errors.ts';
import { SIGNED_URL_TTL_SECONDS } from '../../media/signing.ts';
import { soundLinks } from '../sound-links.ts';
import { defineTool, readOnly } from '../tool.ts';
import { renditionChoiceOf } from '../../shapes/params.ts';
import { formatArguments, refineFormat, renditionArguments, soundId } from './arguments.ts';
import { briefFormatArguments } from './format-descriptions.ts';
import { requireSound } from './require-sound.ts';

export const getDownloadUrlTool = defineTool({
  name: 'get_download_url',
  title: 'Get a download URL',
  description:
    'A signed URL to download one sound (MP3 unless format says otherwise), valid one hour without any header. ' +
    'Each call counts one download toward popularity: once per sound wanted; get_stream_url just to listen. ' +
    'Optionally levelled (loudness), trimmed (trim) or in the format a game imports. CC0: any use, no attribution.',
  inputSchema: z
    .strictObject({ id: soundId, ...renditionArguments, ...briefFormatArguments(formatArguments) })
    .superRefine(refineFormat),
  outputSchema: downloadResultSchema,
  // Not idempotent: every call adds a download to the sound's count, like the REST endpoint.
  annotations: readOnly({ idempotent: false }),
  async run({ id, ...rendition }, { services, owner }) {
    const sound = await requireSound(services, id);
    if (!(await services.meter.countDownload(sound.id))) throw notFound(`Sound ${id} not found`);
    const download = {
      id: sound.id,
      name: sound.name,
      download_url: services.signer.sign(
        sound.id,
        'download',
        renditionChoiceOf({ ...rendition, trim: rendition.trim === true ? 'true' : undefined }),
        owner.account.id,
      ).url,
      expires_in: SIGNED_URL_TTL_SECONDS,
    };
    return {
      structured: download,
      text: `Download ${sound.name} [id ${sound.id}] (${(rendition.format ?? 'mp3').toUpperCase()}, CC0) within ${SIGNED_URL_TTL_SECONDS / 60} minutes: ${download.download_url}`,
      links: soundLinks([sound]),
    };
  },
});
