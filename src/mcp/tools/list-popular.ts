import { decodeRankCursor, encodeRankCursor, popularWalk } from '@sound-catalog/catalog-index';
import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { toCursorPagination, toPopularSound } from '../../shapes/mappers.ts';
import { detailAsInSearch, toConciseSound } from '../sound-shapes.ts';
import { soundLinks } from '../sound-links.ts';
import { soundListText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';

const { popular } = LIST_LIMITS;

export const listPopularTool = defineTool({
  name: 'list_popular',
  title: 'Most downloaded sounds',
  description:
    'The most downloaded sounds, most first (numDownloads in full detail): a good start when no sound is ' +
    'asked for. Fields as search_sounds.',
  inputSchema: z.strictObject({
    limit: z.int().min(popular.min).max(popular.max).default(popular.default).describe('How many sounds.'),
    cursor: z
      .string()
      .max(300)
      .refine(
        (text) => decodeRankCursor(text) !== undefined,
        'not a cursor list_popular gave out; start again with "" or without it',
      )
      .optional()
      .describe("The last page's pagination.next_cursor."),
    detail: detailAsInSearch,
  }),
  annotations: readOnly({ idempotent: true }),
  async run({ limit, cursor, detail }, { services }) {
    const after = cursor === undefined ? null : decodeRankCursor(cursor)!;
    const page = await popularWalk((filters) => services.catalog.search(filters), after, limit);
    const full = page.items.map((sound) => toPopularSound(sound, services.signer));
    // The download count is what this list is about: a concise sound keeps it.
    const data =
      detail === 'full' ? full : full.map((sound) => ({ ...toConciseSound(sound), numDownloads: sound.numDownloads }));
    const pagination = toCursorPagination(1, limit, page.total, page.next && encodeRankCursor(page.next));
    const more = pagination.next_cursor === null ? '' : `\nNext page: cursor "${pagination.next_cursor}".`;
    return {
      structured: { data, pagination },
      text: soundListText(data, pagination) + more,
      links: detail === 'full' ? soundLinks(full) : [],
    };
  },
});
