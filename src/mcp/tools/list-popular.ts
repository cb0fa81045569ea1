import { decodeRankCursor, encodeRankCursor, popularWalk } from '@sound-catalog/catalog-index';
import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { cursorPaginationSchema, popularSoundSchema } from '../../shapes/schemas.ts';
import { toCursorPagination, toPopularSound } from '../../shapes/mappers.ts';
import { SOUND_FIELD_GUIDE } from '../field-guide.ts';
import { soundLinks } from '../sound-links.ts';
import { soundListText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';

const { popular } = LIST_LIMITS;

export const listPopularTool = defineTool({
  name: 'list_popular',
  title: 'List the most downloaded sounds',
  description: 'The most downloaded sounds of the whole catalog, highest all-time download count (numDownloads) first, '
    + `with full metadata. A good start when no particular sound is asked for. ${SOUND_FIELD_GUIDE}`,
  inputSchema: z.strictObject({
    limit: z.int().min(popular.min).max(popular.max).default(popular.default).describe(`How many sounds, ${popular.min} to ${popular.max}, default ${popular.default}.`),
    cursor: z.string().max(300).refine((text) => decodeRankCursor(text) !== undefined, 'not a cursor list_popular gave out; start again with "" or without it').optional()
      .describe('Go on down the ranking: each answer\'s pagination.next_cursor gives the next page, null at the end (without cursor, or "", the top). '
        + 'Each page continues below the last sound of the one before, by download counts as they are when the page is read. '
        + 'Counts only go up, so no sound is listed twice in a walk, and a sound present throughout whose count stays below where the walk has reached '
        + 'is listed exactly once; one downloaded during the walk until it climbs above that place is not listed again by it. '
        + 'To visit every sound exactly once, walk search_sounds by cursor instead (the catalog\'s own order).'),
  }),
  outputSchema: z.object({ data: z.array(popularSoundSchema), pagination: cursorPaginationSchema }),
  annotations: readOnly({ title: 'List the most downloaded sounds', idempotent: true }),
  async run({ limit, cursor }, { services }) {
    const after = cursor === undefined ? null : decodeRankCursor(cursor)!;
    const page = await popularWalk((filters) => services.catalog.search(filters), after, limit);
    const data = page.items.map((sound) => toPopularSound(sound, services.signer));
    const pagination = toCursorPagination(1, limit, page.total, page.next && encodeRankCursor(page.next));
    const more = pagination.next_cursor === null ? '' : `\nNext page: cursor "${pagination.next_cursor}".`;
    return { structured: { data, pagination }, text: soundListText(data, pagination) + more, links: soundLinks(data) };
  },
});
