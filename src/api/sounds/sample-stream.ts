import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { defineEndpoint } from '../endpoint.ts';
import { streamResultSchema } from '../../shapes/schemas.ts';
import { errorResponses } from './responses.ts';

export const streamSample = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/sample/:id/stream',
  operationId: 'streamSampleSound',
  summary: 'Get a streaming URL for a sample sound',
  description: 'A signed streaming URL (valid one hour) for one of the public sample sounds. No API key needed.',
  tag: 'Samples',
  security: 'public',
  query: z.object({}),
  params: z.object({ id: z.string().describe('Sample sound id.') }),
  responses: {
    200: { description: 'Signed streaming URL.', schema: z.object({ data: streamResultSchema }) },
    404: errorResponses[404],
    500: errorResponses[500],
  },
  async handler({ params, services }) {
    const sound = await services.catalog.findSampleById(params.id);
    if (!sound) throw notFound(`Sound ${params.id} not found`);
    return { data: { id: sound.id, name: sound.name, stream_url: services.signer.sign(sound.id, 'stream').url } };
  },
});
