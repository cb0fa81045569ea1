import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { notFound } from '../../errors.ts';
import { toPagination, toSimilarSound } from '../../shapes/mappers.ts';
import { lenientInt } from '../../shapes/params.ts';
import { paginationSchema, similarSoundSchema } from '../../shapes/schemas.ts';
import { defineEndpoint } from '../endpoint.ts';
import { authErrors, errorResponses } from './responses.ts';

const { similar } = LIST_LIMITS;

export const findSimilar = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/:id/similar',
  operationId: 'findSimilarSounds',
  summary: 'Find sounds that sound alike',
  description:
    'The sounds nearest to this one by their audio descriptors (timbre, spectral shape, envelope, loudness), ' +
    'most similar first, never the sound itself. Out-of-range limits are clamped. A sound whose audio was not yet ' +
    'described has no neighbours (sound-catalog analyze --missing describes it).',
  tag: 'extensions',
  security: 'apiKey',
  query: z.object({
    limit: lenientInt(similar.min, similar.max, similar.default).describe(
      `${similar.min} to ${similar.max}, default ${similar.default}.`,
    ),
  }),
  params: z.object({ id: z.string().describe('Sound id.') }),
  responses: {
    200: {
      description: 'Similar sounds.',
      schema: z.object({ data: z.array(similarSoundSchema), pagination: paginationSchema }),
    },
    404: errorResponses[404],
    ...authErrors,
  },
  async handler({ params, query, services }) {
    const neighbours = await services.catalog.similar(params.id, query.limit);
    if (!neighbours) throw notFound(`Sound ${params.id} not found`);
    return {
      data: neighbours.map(({ sound, similarity }) => toSimilarSound(sound, similarity, services.signer)),
      pagination: toPagination(1, query.limit, neighbours.length),
    };
  },
});
