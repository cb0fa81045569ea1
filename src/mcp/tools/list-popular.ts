import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { paginationSchema, popularSoundSchema } from '../../shapes/schemas.ts';
import { toPagination, toPopularSound } from '../../shapes/mappers.ts';
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
  }),
  outputSchema: z.object({ data: z.array(popularSoundSchema), pagination: paginationSchema }),
  annotations: readOnly({ title: 'List the most downloaded sounds', idempotent: true }),
  async run({ limit }, { services }) {
    const page = await services.catalog.popular(limit);
    const data = page.items.map((sound) => toPopularSound(sound, services.signer));
    const pagination = toPagination(1, limit, page.total);
    return { structured: { data, pagination }, text: soundListText(data, pagination), links: soundLinks(data) };
  },
});
