import { z } from 'zod';
import { LIST_LIMITS, MAX_SEARCH_PAGE } from '../../catalog/limits.ts';
import { defineEndpoint, invalidQuery } from '../endpoint.ts';
import { facetsSchema, pageOrCursorPaginationSchema, soundSchema } from '../../shapes/schemas.ts';
import { toCursorPagination, toPagination, toSound } from '../../shapes/mappers.ts';
import {
  categoryList,
  contradictoryBounds,
  cursorOf,
  encodeCursor,
  EXTENSION,
  facetList,
  isoTime,
  loopFilter,
  lufs,
  milliseconds,
  searchFiltersOf,
  seconds,
  sortField,
  sortOrder,
  strictInt,
} from '../../shapes/params.ts';
import { authErrors, errorResponses } from './responses.ts';

const { search } = LIST_LIMITS;

export const searchSounds = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds',
  operationId: 'searchSounds',
  summary: 'Search and filter the catalog',
  description:
    'Full catalog search. Every word of q must occur in the name, description or a tag; tags are ANDed; ' +
    'results are ordered by the sort field with the id as tiebreak, so pages never repeat or skip a sound.',
  tag: 'Sounds',
  security: 'apiKey',
  query: z.strictObject({
    q: z
      .string()
      .max(200)
      .optional()
      .describe('Keywords; each must match the name, description or a tag (substrings match).'),
    category: categoryList.describe(
      'sfx, music, lofi or ambient (any case); a comma-separated list matches any of them.',
    ),
    tags: z.string().max(500).optional().describe('Comma-separated tags; a sound must carry all of them.'),
    min_duration: seconds.describe('Minimum duration in seconds.'),
    max_duration: seconds.describe('Maximum duration in seconds.'),
    max_onset_ms: milliseconds
      .describe('Extension: only sounds whose onset is at most this many milliseconds in ("tight" sounds).')
      .meta(EXTENSION),
    min_lufs: lufs.describe('Extension: lowest integrated loudness, in LUFS.').meta(EXTENSION),
    max_lufs: lufs.describe('Extension: highest integrated loudness, in LUFS.').meta(EXTENSION),
    loop: loopFilter
      .describe('Extension: true for loops only (sounds with a loop), false for sounds that are no loop.')
      .meta(EXTENSION),
    updated_since: isoTime
      .optional()
      .describe(
        'Extension: only sounds whose record (metadata or audio) changed at or after this time, ISO 8601 ' +
          '(2026-06-15, or 2026-06-15T12:00:00Z with Z or an offset). Download counts and the sample flag are not ' +
          'the record: GET /api/v1/changes lists a change of the sample flag, never a download.',
      )
      .meta(EXTENSION),
    cursor: cursorOf('sounds')
      .optional()
      .describe(
        "Extension: walk the whole match in the catalog's own order (the order sounds were added in, which " +
          "never changes), a page at a time: send an empty cursor for the first page, then each answer's " +
          'pagination.next_cursor until it is null. A sound present from the first page to the last is seen ' +
          'exactly once, whatever is added, changed or removed meanwhile; sounds added during the walk may or may ' +
          'not be seen. sort, order and page do not apply to a walk and are refused beside it (400); a cursor is ' +
          'opaque and refused (400) unless this endpoint gave it out.',
      )
      .meta(EXTENSION),
    facets: facetList
      .describe('Extension: category, tags or both (comma-separated): counts over every match, beside the page.')
      .meta(EXTENSION),
    sort: sortField
      .describe('downloads (default), created_at, duration or name.')
      .meta({ 'x-extension-values': ['relevance'] }),
    order: sortOrder.describe('asc or desc (default).'),
    page: strictInt(1, MAX_SEARCH_PAGE, 1).describe('Page number, from 1.'),
    limit: strictInt(search.min, search.max, search.default).describe(
      `Page size, ${search.min} to ${search.max}, default ${search.default}.`,
    ),
  }),
  responses: {
    200: {
      description: 'Matching sounds.',
      schema: z.object({
        data: z.array(soundSchema),
        pagination: pageOrCursorPaginationSchema,
        facets: facetsSchema.optional(),
      }),
    },
    400: errorResponses[400],
    ...authErrors,
  },
  async handler({ query, services, request }) {
    const contradictions = [...contradictoryBounds(query), ...pagingBesideCursor(query.cursor, request.url)];
    if (contradictions.length > 0) throw invalidQuery(contradictions);
    const page = await services.catalog.search(searchFiltersOf(query));
    const next =
      page.nextAfter === undefined || page.nextAfter === null ? null : encodeCursor('sounds', page.nextAfter);
    const answer = {
      data: page.items.map((sound) => toSound(sound, services.signer)),
      // A page asked by number has the API document's pagination; only a walk's has a next_cursor.
      pagination:
        query.cursor === undefined
          ? toPagination(query.page, query.limit, page.total)
          : toCursorPagination(1, query.limit, page.total, next),
    };
    return page.facets ? Object.assign(answer, { facets: page.facets }) : answer;
  },
});

/**
 * sort, order and page beside a cursor, as 400 details. Read from the query string as sent: the
 * parsed query has their defaults filled in.
 */
function pagingBesideCursor(cursor: number | undefined, url: string): Array<{ param: string; message: string }> {
  if (cursor === undefined) return [];
  const sent = new URL(url, 'http://localhost').searchParams;
  return ['sort', 'order', 'page']
    .filter((name) => sent.has(name))
    .map((param) => ({ param, message: "does not apply to a cursor walk (the catalog's own order); leave it out" }));
}
