import { z } from 'zod';
import { LIST_LIMITS, MAX_SEARCH_PAGE, SEARCH_BOUNDS } from '../../catalog/limits.ts';
import { FACETS, SEARCH_SORTS, toWords, type Facets } from '../../catalog/sound.ts';
import { facetsSchema, pageOrCursorPaginationSchema, soundSchema } from '../../shapes/schemas.ts';
import { cursorOf, encodeCursor } from '../../shapes/params.ts';
import { toCursorPagination, toPagination, toSound } from '../../shapes/mappers.ts';
import { SOUND_FIELD_GUIDE } from '../field-guide.ts';
import { soundLinks } from '../sound-links.ts';
import { soundListText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';
import { categoryArgument, listArgument, toCategories, toListArgument } from './arguments.ts';

/** REST search's cursors: a walk begun on either goes on on the other. */
const sameCursor = cursorOf('sounds');

/** The same bounds as REST search (GET /api/v1/sounds). */
const { maxSeconds: MAX_SECONDS, maxOnsetMs: MAX_MILLISECONDS, lufs: LUFS_RANGE } = SEARCH_BOUNDS;

const inputSchema = z.strictObject({
  q: z.string().max(200).optional()
    .describe('Keywords. Every word must occur in the name, description or a tag (substrings match, case-insensitive), so two words find sounds having both. Short single words work best: "laser", "coin", "door creak".'),
  tags: listArgument('Tags a sound must all carry (AND).'),
  category: categoryArgument,
  min_duration: z.number().min(0).max(MAX_SECONDS).optional().describe('Shortest duration wanted, in seconds.'),
  max_duration: z.number().min(0).max(MAX_SECONDS).optional()
    .describe('Longest duration wanted, in seconds (e.g. 1 for "under a second").'),
  max_onset_ms: z.number().min(0).max(MAX_MILLISECONDS).optional()
    .describe('Only sounds that start within this many milliseconds (e.g. 10 for tight hits with no lead-in).'),
  min_lufs: z.number().min(LUFS_RANGE.min).max(LUFS_RANGE.max).optional()
    .describe('Quietest integrated loudness wanted, in LUFS (e.g. -20).'),
  max_lufs: z.number().min(LUFS_RANGE.min).max(LUFS_RANGE.max).optional()
    .describe('Loudest integrated loudness wanted, in LUFS (e.g. -10).'),
  facets: z.array(z.enum(FACETS)).max(FACETS.length).optional()
    .describe('Also count every match per category and/or its 20 most frequent tags, to see how to narrow a search: ["category", "tags"].'),
  sort: z.enum(SEARCH_SORTS).default('downloads')
    .describe('downloads (most downloaded first, the default), relevance (best match of q first: name, then tag, then description), '
      + 'created_at (newest), duration or name.'),
  order: z.enum(['asc', 'desc']).default('desc').describe('desc (default) or asc; use asc with duration for the shortest first.'),
  page: z.int().min(1).max(MAX_SEARCH_PAGE).default(1).describe('Page number, from 1; see pagination.totalPages.'),
  cursor: z.string().max(64).refine((text) => sameCursor.safeParse(text).success, 'not a cursor search_sounds gave out; start again with "" or without it').optional()
    .describe('Walk every match in the catalog\'s own order (the order sounds were added in), a page at a time: "" for the first page, '
      + 'then each answer\'s pagination.next_cursor until it is null. Every sound present throughout the walk is seen once. '
      + 'sort, order and page do not apply to a walk.'),
  limit: z.int().min(LIST_LIMITS.search.min).max(LIST_LIMITS.search.max).default(LIST_LIMITS.search.default)
    .describe(`Sounds per page, ${LIST_LIMITS.search.min} to ${LIST_LIMITS.search.max}, default ${LIST_LIMITS.search.default}.`),
}).superRefine((args, context) => {
  if (args.min_duration !== undefined && args.max_duration !== undefined && args.min_duration > args.max_duration) {
    context.addIssue({ code: 'custom', path: ['max_duration'], message: 'must not be smaller than min_duration' });
  }
  if (args.min_lufs !== undefined && args.max_lufs !== undefined && args.min_lufs > args.max_lufs) {
    context.addIssue({ code: 'custom', path: ['max_lufs'], message: 'must not be smaller than min_lufs' });
  }
});

export const searchSoundsTool = defineTool({
  name: 'search_sounds',
  title: 'Search sounds',
  description: 'Search the whole catalog of CC0 sound effects and music by keywords, tags, category, duration, onset and loudness. '
    + 'Returns full metadata (timing and loudness) of one page of matches, ordered by the sort field, with pagination, '
    + 'and counts per category and tag when facets are asked for. '
    + `${SOUND_FIELD_GUIDE} Next steps: get_stream_url to listen, get_download_url to fetch the MP3.`,
  inputSchema,
  outputSchema: z.object({
    data: z.array(soundSchema), pagination: pageOrCursorPaginationSchema, facets: facetsSchema.optional(),
  }),
  annotations: readOnly({ title: 'Search sounds', idempotent: true }),
  async run(args, { services }) {
    const after = args.cursor === undefined ? undefined : sameCursor.parse(args.cursor);
    const walking = after !== undefined;
    const page = await services.catalog.search({
      words: toWords(args.q),
      categories: toCategories(args.category),
      tags: toListArgument(args.tags),
      minDuration: args.min_duration,
      maxDuration: args.max_duration,
      maxOnsetMs: args.max_onset_ms,
      minLufs: args.min_lufs,
      maxLufs: args.max_lufs,
      facets: args.facets,
      after,
      sort: walking ? 'downloads' : args.sort,
      order: walking ? 'desc' : args.order,
      page: walking ? 1 : args.page,
      limit: args.limit,
    });
    const data = page.items.map((sound) => toSound(sound, services.signer));
    const nextCursor = page.nextAfter === undefined || page.nextAfter === null ? null : encodeCursor('sounds', page.nextAfter);
    // As REST search: only a walk's page has a next_cursor.
    const pagination = walking
      ? toCursorPagination(1, args.limit, page.total, nextCursor)
      : toPagination(args.page, args.limit, page.total);
    const text = soundListText(data, pagination);
    const links = soundLinks(data);
    if (!page.facets) return { structured: { data, pagination }, text, links };
    return { structured: { data, pagination, facets: page.facets }, text: `${text}\n${facetsText(page.facets)}`, links };
  },
});

function facetsText(facets: Facets): string {
  const lines = [];
  if (facets.category) {
    lines.push(`by category: ${Object.entries(facets.category).map(([category, count]) => `${category} ${count}`).join(', ')}`);
  }
  if (facets.tags) {
    lines.push(`top tags: ${facets.tags.map(({ tag, count }) => `${tag} ${count}`).join(', ') || 'none'}`);
  }
  return lines.join('\n');
}
