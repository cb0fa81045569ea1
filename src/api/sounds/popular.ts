import { decodeRankCursor, encodeRankCursor, popularWalk } from '@sound-catalog/catalog-index';
import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageOrCursorPaginationSchema, popularSoundSchema } from '../../shapes/schemas.ts';
import { toCursorPagination, toPagination, toPopularSound } from '../../shapes/mappers.ts';
import { EXTENSION, lenientInt } from '../../shapes/params.ts';
import { authErrors } from './responses.ts';

const { popular } = LIST_LIMITS;

/**
 * A cursor list_popular or this endpoint gave out, to where its walk has reached; null for the top.
 * This operation lists no 400 (operator contract: a value it cannot use is read as its default), so
 * a cursor it did not give out, or one sent twice, is a walk from the top.
 */
const rankCursor = z
  .string()
  .max(300)
  .transform((text) => decodeRankCursor(text) ?? null)
  .optional()
  .catch(null);

export const listPopular = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/popular',
  operationId: 'listPopularSounds',
  summary: 'List the most downloaded sounds',
  description: 'Sounds by all-time download count, highest first. Out-of-range limits are clamped.',
  tag: 'Sounds',
  security: 'apiKey',
  query: z.object({
    limit: lenientInt(popular.min, popular.max, popular.default).describe(
      `${popular.min} to ${popular.max}, default ${popular.default}.`,
    ),
    cursor: rankCursor
      .describe(
        "Extension: go on down the ranking with each answer's pagination.next_cursor (null at the end; empty or " +
          'absent: the top). Each page continues below the last sound of the one before, by download counts as ' +
          'they are when the page is read. Counts only go up, so no sound is listed twice in a walk, and a sound ' +
          'present throughout whose count stays below where the walk has reached is listed exactly once; one ' +
          'downloaded during the walk until it climbs above that place is not listed again by it (a search walk ' +
          'by cursor visits every sound exactly once). A cursor this endpoint did not give out is read as the ' +
          'empty one, the top (this operation answers no 400).',
      )
      .meta(EXTENSION),
  }),
  responses: {
    200: {
      description: 'Most downloaded sounds.',
      schema: z.object({ data: z.array(popularSoundSchema), pagination: pageOrCursorPaginationSchema }),
    },
    ...authErrors,
  },
  async handler({ query, services }) {
    const page = await popularWalk((filters) => services.catalog.search(filters), query.cursor ?? null, query.limit);
    return {
      data: page.items.map((sound) => toPopularSound(sound, services.signer)),
      // Without a cursor, the API document's answer; with one (even empty), a walk's, with its next_cursor.
      pagination:
        query.cursor === undefined
          ? toPagination(1, query.limit, page.total)
          : toCursorPagination(1, query.limit, page.total, page.next && encodeRankCursor(page.next)),
    };
  },
});
