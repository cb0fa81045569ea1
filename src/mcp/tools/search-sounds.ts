import { z } from 'zod';
import { LIST_LIMITS, MAX_SEARCH_PAGE, SEARCH_BOUNDS } from '../../catalog/limits.ts';
import { FACETS, SEARCH_SORTS, toWords, type Facets } from '../../catalog/sound.ts';
import { cursorOf, encodeCursor } from '../../shapes/params.ts';
import { toCursorPagination, toPagination, toSound } from '../../shapes/mappers.ts';
import { detailArgument, toConciseSound } from '../sound-shapes.ts';
import { soundLinks } from '../sound-links.ts';
import { soundListText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';
import { categoryArgument, listArgument, toCategories, toListArgument } from './arguments.ts';

/** REST search's cursors: a walk begun on either goes on on the other. */
const sameCursor = cursorOf('sounds');

/** The same bounds as REST search (GET /api/v1/sounds). */
const { maxSeconds: MAX_SECONDS, maxOnsetMs: MAX_MILLISECONDS, lufs: LUFS_RANGE } = SEARCH_BOUNDS;

const inputSchema = z
  .strictObject({
    q: z.string().max(200).optional().describe('Keywords, all in name, description or tags: "door creak".'),
    tags: listArgument('Tags a sound must all carry.'),
    category: categoryArgument,
    min_duration: z.number().min(0).max(MAX_SECONDS).optional().describe('Shortest duration, seconds.'),
    max_duration: z.number().min(0).max(MAX_SECONDS).optional().describe('Longest duration, seconds.'),
    max_onset_ms: z.number().min(0).max(MAX_MILLISECONDS).optional().describe('Latest onset, ms.'),
    min_lufs: z.number().min(LUFS_RANGE.min).max(LUFS_RANGE.max).optional().describe('Lowest loudness, LUFS.'),
    max_lufs: z.number().min(LUFS_RANGE.min).max(LUFS_RANGE.max).optional().describe('Highest loudness, LUFS.'),
    loop: z.boolean().optional().describe('true: loops only; false: no loops.'),
    facets: z
      .array(z.enum(FACETS))
      .max(FACETS.length)
      .optional()
      .describe('Count matches per category and/or top tags.'),
    sort: z.enum(SEARCH_SORTS).default('downloads').describe('Order of results; relevance ranks by q.'),
    order: z.enum(['asc', 'desc']).default('desc').describe('Sort direction.'),
    page: z.int().min(1).max(MAX_SEARCH_PAGE).default(1).describe('Page, from 1.'),
    cursor: z
      .string()
      .max(64)
      .refine(
        (text) => sameCursor.safeParse(text).success,
        'not a cursor search_sounds gave out; start again with "" or without it',
      )
      .optional()
      .describe('"" to walk all matches once, then each pagination.next_cursor until null.'),
    limit: z
      .int()
      .min(LIST_LIMITS.search.min)
      .max(LIST_LIMITS.search.max)
      .default(LIST_LIMITS.search.default)
      .describe('Sounds per page.'),
    detail: detailArgument,
  })
  .superRefine((args, context) => {
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
  description:
    'Search CC0 sound effects and music by keywords, tags, category, duration, onset, loudness and loop; concise ' +
    'results unless detail is "full" (as get_sound explains). The place to start; then preview_sound or ' +
    'get_stream_url to listen, get_download_url to fetch.',
  inputSchema,
  annotations: readOnly({ idempotent: true }),
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
      loop: args.loop,
      facets: args.facets,
      after,
      sort: walking ? 'downloads' : args.sort,
      order: walking ? 'desc' : args.order,
      page: walking ? 1 : args.page,
      limit: args.limit,
    });
    const full = page.items.map((sound) => toSound(sound, services.signer));
    const data = args.detail === 'full' ? full : full.map(toConciseSound);
    const nextCursor =
      page.nextAfter === undefined || page.nextAfter === null ? null : encodeCursor('sounds', page.nextAfter);
    // As REST search: only a walk's page has a next_cursor.
    const pagination = walking
      ? toCursorPagination(1, args.limit, page.total, nextCursor)
      : toPagination(args.page, args.limit, page.total);
    const text = soundListText(data, pagination);
    // Links cost bytes on every result: a concise page leaves them to the full one.
    const links = args.detail === 'full' ? soundLinks(full) : [];
    if (!page.facets) return { structured: { data, pagination }, text, links };
    return {
      structured: { data, pagination, facets: { ...page.facets } },
      text: `${text}\n${facetsText(page.facets)}`,
      links,
    };
  },
});

function facetsText(facets: Facets): string {
  const lines = [];
  if (facets.category) {
    lines.push(
      `by category: ${Object.entries(facets.category)
        .map(([category, count]) => `${category} ${count}`)
        .join(', ')}`,
    );
  }
  if (facets.tags) {
    lines.push(`top tags: ${facets.tags.map(({ tag, count }) => `${tag} ${count}`).join(', ') || 'none'}`);
  }
  return lines.join('\n');
}
