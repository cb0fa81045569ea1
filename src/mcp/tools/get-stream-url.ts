import { z } from 'zod';
import { soundLinks } from '../sound-links.ts';
import { defineTool, readOnly } from '../tool.ts';
import { renditionChoiceOf } from '../../shapes/params.ts';
import { formatArguments, refineFormat, renditionArguments, soundId } from './arguments.ts';
import { briefFormatArguments } from './format-descriptions.ts';
import { requireSound } from './require-sound.ts';

export const getStreamUrlTool = defineTool({
  name: 'get_stream_url',
  title: 'Get a streaming URL',
  description:
    'A signed URL (one hour, no header, e.g. for <audio>) to listen to one sound, optionally levelled, trimmed or ' +
    'in another format; no download is counted. To keep the file, get_download_url.',
  inputSchema: z
    .strictObject({ id: soundId, ...renditionArguments, ...briefFormatArguments(formatArguments) })
    .superRefine(refineFormat),
  annotations: readOnly({ idempotent: true }),
  async run({ id, ...rendition }, { services, owner }) {
    const sound = await requireSound(services, id);
    const stream = {
      id: sound.id,
      name: sound.name,
      stream_url: services.signer.sign(
        sound.id,
        'stream',
        renditionChoiceOf({ ...rendition, trim: rendition.trim === true ? 'true' : undefined }),
        owner.account.id,
      ).url,
    };
    return {
      structured: stream,
      text: `Listen to ${sound.name} [id ${sound.id}] for the next hour: ${stream.stream_url}`,
      links: soundLinks([sound]),
    };
  },
});
