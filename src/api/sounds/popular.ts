import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { renderedLists } from '../rendered.ts';
import { paginationSchema, popularSoundSchema } from '../schemas.ts';
import { toPagination, toPopularSound } from './mapper.ts';
import { lenientInt } from './params.ts';
import { authErrors } from './responses.ts';

/** Answers rendered once a second, found again by URL before parsing (rendered.ts). */
const rendered = renderedLists();

export const listPopular = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/popular',
  operationId: 'listPopularSounds',
  summary: 'List the most downloaded sounds',
  description: 'Sounds by all-time download count, highest first. Out-of-range limits are clamped.',
  tag: 'Sounds',
  rendered,
  security: 'apiKey',
  query: z.object({ limit: lenientInt(1, 100, 30).describe('1 to 100, default 30.') }),
  responses: {
    200: { description: 'Most downloaded sounds.', schema: z.object({ data: z.array(popularSoundSchema), pagination: paginationSchema }) },
    ...authErrors,
  },
  async handler({ query, services, request, reply }) {
    const page = await services.catalog.popular(query.limit);
    return rendered.send(request, reply, page, services.clock(), () => ({
      data: page.items.map((sound) => toPopularSound(sound, services)),
      pagination: toPagination(1, query.limit, page.total),
    }));
  },
});
