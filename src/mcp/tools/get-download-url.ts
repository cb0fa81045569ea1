import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { SIGNED_URL_TTL_SECONDS } from '../../media/signing.ts';
import { soundLinks } from '../sound-links.ts';
import { defineTool, readOnly } from '../tool.ts';
import { renditionChoiceOf } from '../../shapes/params.ts';
import { formatArguments, refineFormat, renditionArguments, soundId } from './arguments.ts';
import { describedIn } from './format-descriptions.ts';
import { requireSound } from './require-sound.ts';

export const getDownloadUrlTool = defineTool({
  name: 'get_download_url',
  title: 'Get a download URL',
  description:
    'A signed URL (one hour, no header) to download one sound to keep, optionally levelled, trimmed or in ' +
    'another format. Each call counts one download: once per sound wanted; get_stream_url just to listen.',
  inputSchema: z
    .strictObject({ id: soundId, ...describedIn('get_stream_url', { ...renditionArguments, ...formatArguments }) })
    .superRefine(refineFormat),
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
      text:
        `Download ${sound.name} [id ${sound.id}] (${(rendition.format ?? 'mp3').toUpperCase()}, CC0) within ` +
        `${SIGNED_URL_TTL_SECONDS / 60} minutes: ${download.download_url}`,
      links: soundLinks([sound]),
    };
  },
});
