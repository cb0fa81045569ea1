import { z } from 'zod';
import { SIGNED_URL_TTL_SECONDS } from '../../media/signing.ts';
import { notFound } from '../../errors.ts';
import type { ApiServices } from '../../services.ts';
import { defineEndpoint } from '../endpoint.ts';
import { downloadResultSchema, soundSchema, streamResultSchema } from '../../shapes/schemas.ts';
import { toSound } from '../../shapes/mappers.ts';
import { authErrors, errorResponses } from './responses.ts';
import { EXTENSION, lenientNumber } from '../../shapes/params.ts';
import { RENDITION_LOUDNESS, type RenditionChoice } from '../../media/renditions.ts';

const params = z.object({ id: z.string().describe('Sound id.') });

/** Extension: the rendition a stream or download URL points to (clamped or ignored, never refused: these endpoints list no 400). */
const renditionQuery = z.object({
  loudness: lenientNumber(RENDITION_LOUDNESS.min, RENDITION_LOUDNESS.max)
    .describe(`Extension: deliver the sound at this integrated loudness, LUFS (${RENDITION_LOUDNESS.min} to ${RENDITION_LOUDNESS.max}, clamped), `
      + 'true peak at or under -1 dBTP. The media response states the loudness delivered in X-Integrated-LUFS.').meta(EXTENSION),
  trim: z.enum(['true', 'false']).optional().catch(undefined)
    .describe('Extension: true cuts the silence before timing.onset_ms and after timing.tail_ms.').meta(EXTENSION),
});

function renditionOf(query: z.output<typeof renditionQuery>): RenditionChoice {
  return {
    ...(query.loudness !== undefined && { loudness: Math.round(query.loudness * 10) / 10 }),
    ...(query.trim === 'true' && { trim: true }),
  };
}
const responsesWith = (description: string, schema: z.ZodType) => ({
  200: { description, schema },
  404: errorResponses[404],
  ...authErrors,
});

async function requireSound(services: ApiServices, id: string) {
  const sound = await services.catalog.findById(id);
  if (!sound) throw notFound(`Sound ${id} not found`);
  return sound;
}

export const getSound = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/:id',
  operationId: 'getSound',
  summary: 'Get one sound',
  description: 'Full metadata of one sound, with timing and loudness.',
  tag: 'Sounds',
  security: 'apiKey',
  query: z.object({}),
  params,
  responses: responsesWith('The sound.', z.object({ data: soundSchema })),
  async handler({ params, services }) {
    const sound = await requireSound(services, params.id);
    return { data: toSound(sound, services.signer) };
  },
});

export const streamSound = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/:id/stream',
  operationId: 'streamSound',
  summary: 'Get a streaming URL',
  description: 'A signed URL (valid one hour) to play the sound. No download is counted.',
  tag: 'Sounds',
  security: 'apiKey',
  query: renditionQuery,
  params,
  responses: responsesWith('Signed streaming URL.', z.object({ data: streamResultSchema })),
  async handler({ params, query, services }) {
    const sound = await requireSound(services, params.id);
    return { data: { id: sound.id, name: sound.name, stream_url: services.signer.sign(sound.id, 'stream', renditionOf(query)).url } };
  },
});

export const downloadSound = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/:id/download',
  operationId: 'downloadSound',
  summary: 'Get a download URL',
  description: 'A signed URL (valid one hour) to download the MP3. Each call counts one download.',
  tag: 'Sounds',
  security: 'apiKey',
  query: renditionQuery,
  params,
  responses: responsesWith('Signed download URL.', z.object({ data: downloadResultSchema })),
  async handler({ params, query, services }) {
    const sound = await requireSound(services, params.id);
    if (!(await services.catalog.countDownload(sound.id))) throw notFound(`Sound ${params.id} not found`);
    const signed = services.signer.sign(sound.id, 'download', renditionOf(query));
    return { data: { id: sound.id, name: sound.name, download_url: signed.url, expires_in: SIGNED_URL_TTL_SECONDS } };
  },
});
