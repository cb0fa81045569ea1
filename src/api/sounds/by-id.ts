import { z } from 'zod';
import { SIGNED_URL_TTL_SECONDS } from '../../media/signing.ts';
import { notFound } from '../../errors.ts';
import type { ApiServices } from '../../services.ts';
import { defineEndpoint } from '../endpoint.ts';
import { downloadResultSchema, soundSchema, streamResultSchema } from '../../shapes/schemas.ts';
import { toSound } from '../../shapes/mappers.ts';
import { authErrors, errorResponses } from './responses.ts';
import { mediaQuery, renditionChoiceOf } from '../../shapes/params.ts';

const params = z.object({ id: z.string().describe('Sound id.') });
const responsesWith = <S extends z.ZodType>(description: string, schema: S) => ({
  200: { description, schema },
  404: errorResponses[404],
  ...authErrors,
});

/**
 * Stream and download take the rendition and format parameters: a bad one is the search's 400,
 * which the operator contract has the document list on these two operations.
 */
const mediaResponsesWith = <S extends z.ZodType>(description: string, schema: S) => ({
  ...responsesWith(description, schema),
  400: {
    description: 'Invalid loudness, trim or format parameter (name or value).',
    schema: errorResponses[400].schema,
  },
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
  query: mediaQuery,
  params,
  responses: mediaResponsesWith('Signed streaming URL.', z.object({ data: streamResultSchema })),
  async handler({ params, query, services, owner }) {
    const sound = await requireSound(services, params.id);
    // A rendition's URL names the account that pays for making it.
    const signed = services.signer.sign(sound.id, 'stream', renditionChoiceOf(query), owner!.account.id);
    return { data: { id: sound.id, name: sound.name, stream_url: signed.url } };
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
  query: mediaQuery,
  params,
  responses: mediaResponsesWith('Signed download URL.', z.object({ data: downloadResultSchema })),
  async handler({ params, query, services, owner }) {
    // Counting finds the sound too: one statement, where a read and then a write were two.
    const sound = await services.meter.countDownload(params.id);
    if (!sound) throw notFound(`Sound ${params.id} not found`);
    const signed = services.signer.sign(sound.id, 'download', renditionChoiceOf(query), owner!.account.id);
    return { data: { id: sound.id, name: sound.name, download_url: signed.url, expires_in: SIGNED_URL_TTL_SECONDS } };
  },
});
