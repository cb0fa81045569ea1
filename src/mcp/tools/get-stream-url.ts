import { z } from 'zod';
import { streamResultSchema } from '../../shapes/schemas.ts';
import { soundLinks } from '../sound-links.ts';
import { defineTool, readOnly } from '../tool.ts';
import { renditionChoiceOf } from '../../shapes/params.ts';
import { formatArguments, refineFormat, renditionArguments, soundId } from './arguments.ts';
import { requireSound } from './require-sound.ts';

export const getStreamUrlTool = defineTool({
  name: 'get_stream_url',
  title: 'Get a streaming URL',
  description: 'A signed URL to listen to one sound (MP3), valid for one hour and usable without any header, '
    + 'e.g. in an <audio> element or a media player. Previewing is free: no download is counted. '
    + 'Optionally loudness-normalized (loudness), trimmed of silence (trim), and in another format (format: wav, flac, ogg, opus; sample_rate, channels, bit_depth). '
    + 'Use get_download_url instead when the file is to be kept.',
  inputSchema: z.strictObject({ id: soundId, ...renditionArguments, ...formatArguments }).superRefine(refineFormat),
  outputSchema: streamResultSchema,
  annotations: readOnly({ title: 'Get a streaming URL', idempotent: true }),
  async run({ id, ...rendition }, { services, owner }) {
    const sound = await requireSound(services, id);
    const stream = { id: sound.id, name: sound.name, stream_url: services.signer.sign(sound.id, 'stream', renditionChoiceOf({ ...rendition, trim: rendition.trim === true ? 'true' : undefined }), owner.account.id).url };
    return { structured: stream, text: `Listen to ${sound.name} [id ${sound.id}] for the next hour: ${stream.stream_url}`, links: soundLinks([sound]) };
  },
});
