import { z } from 'zod';
import { downloadResultSchema } from '../../shapes/schemas.ts';
import { notFound } from '../../errors.ts';
import { SIGNED_URL_TTL_SECONDS } from '../../media/signing.ts';
import { soundLinks } from '../sound-links.ts';
import { defineTool, readOnly } from '../tool.ts';
import { renditionChoiceOf } from '../../shapes/params.ts';
import { formatArguments, refineFormat, renditionArguments, soundId } from './arguments.ts';
import { requireSound } from './require-sound.ts';

export const getDownloadUrlTool = defineTool({
  name: 'get_download_url',
  title: 'Get a download URL',
  description: 'A signed URL to download one sound as a file (MP3 unless `format` says otherwise; served as an attachment), valid for expires_in '
    + 'seconds (one hour) and usable without any header. Each call counts one download toward the sound\'s '
    + 'popularity, so call it once per sound actually wanted; use get_stream_url just to listen. '
    + 'Optionally loudness-normalized (loudness), trimmed of silence (trim), and in the format a game or app imports (format: wav, flac, ogg, opus; sample_rate, channels, bit_depth), ready to use. '
    + 'Every sound is CC0: commercial use is allowed and no attribution is required.',
  inputSchema: z.strictObject({ id: soundId, ...renditionArguments, ...formatArguments }).superRefine(refineFormat),
  outputSchema: downloadResultSchema,
  // Not idempotent: every call adds a download to the sound's count, like the REST endpoint.
  annotations: readOnly({ title: 'Get a download URL', idempotent: false }),
  async run({ id, ...rendition }, { services, owner }) {
    const sound = await requireSound(services, id);
    if (!(await services.meter.countDownload(sound.id))) throw notFound(`Sound ${id} not found`);
    const download = {
      id: sound.id,
      name: sound.name,
      download_url: services.signer.sign(sound.id, 'download', renditionChoiceOf({ ...rendition, trim: rendition.trim === true ? 'true' : undefined }), owner.account.id).url,
      expires_in: SIGNED_URL_TTL_SECONDS,
    };
    return {
      structured: download,
      text: `Download ${sound.name} [id ${sound.id}] (${(rendition.format ?? 'mp3').toUpperCase()}, CC0) within ${SIGNED_URL_TTL_SECONDS / 60} minutes: ${download.download_url}`,
      links: soundLinks([sound]),
    };
  },
});
