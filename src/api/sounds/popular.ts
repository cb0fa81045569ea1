import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { defineEndpoint } from '../endpoint.ts';
import { paginationSchema, popularSoundSchema } from '../../shapes/schemas.ts';
import { toPagination, toPopularSound } from '../../shapes/mappers.ts';
import { lenientInt } from '../../shapes/params.ts';
import { authErrors } from './responses.ts';

const { popular } = LIST_LIMITS;

export const listPopular = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/popular',
  operationId: 'listPopularSounds',
  summary: 'List the most downloaded sounds',
  description: 'Sounds by all-time download count, highest first. Out-of-range limits are clamped.',
  tag: 'Sounds',
  security: 'apiKey',
  query: z.object({ limit: lenientInt(popular.min, popular.max, popular.default).describe(`${popular.min} to ${popular.max}, default ${popular.default}.`) }),
  responses: {
    200: { description: 'Most downloaded sounds.', schema: z.object({ data: z.array(popularSoundSchema), pagination: paginationSchema }) },
    ...authErrors,
  },
  async handler({ query, services }) {
    const page = await services.catalog.popular(query.limit);
    return {
      data: page.items.map((sound) => toPopularSound(sound, services.signer)),
      pagination: toPagination(1, query.limit, page.total),
    };
  },
});
