import { z } from 'zod';
import { LIST_LIMITS, MAX_SEARCH_PAGE } from '../../catalog/limits.ts';
import { defineEndpoint, invalidQuery } from '../endpoint.ts';
import { facetsSchema, paginationSchema, soundSchema } from '../../shapes/schemas.ts';
import { toPagination, toSound } from '../../shapes/mappers.ts';
import {
  categoryList, contradictoryBounds, EXTENSION, facetList, lufs, milliseconds, searchFiltersOf, seconds, sortField, sortOrder, strictInt,
} from '../../shapes/params.ts';
import { authErrors, errorResponses } from './responses.ts';

const { search } = LIST_LIMITS;

export const searchSounds = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds',
  operationId: 'searchSounds',
  summary: 'Search and filter the catalog',
  description: 'Full catalog search. Every word of q must occur in the name, description or a tag; tags are ANDed; '
    + 'results are ordered by the sort field with the id as tiebreak, so pages never repeat or skip a sound.',
  tag: 'Sounds',
  security: 'apiKey',
  query: z.strictObject({
    q: z.string().max(200).optional().describe('Keywords; each must match the name, description or a tag (substrings match).'),
    category: categoryList.describe('sfx, music, lofi or ambient (any case); a comma-separated list matches any of them.'),
    tags: z.string().max(500).optional().describe('Comma-separated tags; a sound must carry all of them.'),
    min_duration: seconds.describe('Minimum duration in seconds.'),
    max_duration: seconds.describe('Maximum duration in seconds.'),
    max_onset_ms: milliseconds.describe('Extension: only sounds whose onset is at most this many milliseconds in ("tight" sounds).').meta(EXTENSION),
    min_lufs: lufs.describe('Extension: lowest integrated loudness, in LUFS.').meta(EXTENSION),
    max_lufs: lufs.describe('Extension: highest integrated loudness, in LUFS.').meta(EXTENSION),
    facets: facetList.describe('Extension: category, tags or both (comma-separated): counts over every match, beside the page.').meta(EXTENSION),
    sort: sortField.describe('downloads (default), created_at, duration or name.').meta({ 'x-extension-values': ['relevance'] }),
    order: sortOrder.describe('asc or desc (default).'),
    page: strictInt(1, MAX_SEARCH_PAGE, 1).describe('Page number, from 1.'),
    limit: strictInt(search.min, search.max, search.default).describe(`Page size, ${search.min} to ${search.max}, default ${search.default}.`),
  }),
  responses: {
    200: {
      description: 'Matching sounds.',
      schema: z.object({ data: z.array(soundSchema), pagination: paginationSchema, facets: facetsSchema.optional() }),
    },
    400: errorResponses[400],
    ...authErrors,
  },
  async handler({ query, services }) {
    const contradictions = contradictoryBounds(query);
    if (contradictions.length > 0) throw invalidQuery(contradictions);
    const page = await services.catalog.search(searchFiltersOf(query));
    return {
      data: page.items.map((sound) => toSound(sound, services.signer)),
      pagination: toPagination(query.page, query.limit, page.total),
      ...(page.facets && { facets: page.facets }),
    };
  },
});
