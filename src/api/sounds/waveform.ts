import { z } from 'zod';
import { WAVEFORM_POINT_LIMITS } from '../../catalog/waveform.ts';
import { notFound } from '../../errors.ts';
import { lenientInt } from '../../shapes/params.ts';
import { waveformSchema } from '../../shapes/schemas.ts';
import { defineEndpoint } from '../endpoint.ts';
import { authErrors, errorResponses } from './responses.ts';

const { min, max, default: fallback } = WAVEFORM_POINT_LIMITS;

export const getWaveform = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/:id/waveform',
  operationId: 'getSoundWaveform',
  summary: 'Get waveform data',
  description:
    "The sound's waveform as [min, max] pairs, ready to draw. Out-of-range point counts are clamped. " +
    'Computed from the 200 pairs measured at ingest: fewer points keep every peak, more repeat the measured pairs.',
  tag: 'extensions',
  security: 'apiKey',
  query: z.object({
    points: lenientInt(min, max, fallback).describe(`Columns wanted, ${min} to ${max}, default ${fallback}.`),
  }),
  params: z.object({ id: z.string().describe('Sound id.') }),
  responses: {
    200: { description: 'The waveform.', schema: z.object({ data: waveformSchema }) },
    404: errorResponses[404],
    ...authErrors,
  },
  async handler({ params, query, services }) {
    const peaks = await services.catalog.waveform(params.id, query.points);
    if (!peaks) throw notFound(`Sound ${params.id} not found`);
    return { data: { id: params.id, points: peaks.length, peaks } };
  },
});
