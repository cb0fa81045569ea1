import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { toWords } from '../../catalog/sound.ts';
import { paginationSchema, soundSummarySchema } from '../../shapes/schemas.ts';
import { toPagination, toSoundSummary } from '../../shapes/mappers.ts';
import { soundLinks } from '../sound-links.ts';
import { soundListText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';
import { listArgument, toListArgument } from './arguments.ts';

const { samples } = LIST_LIMITS;


export const listSamplesTool = defineTool({
  name: 'list_samples',
  title: 'List the free sample sounds',
  description: 'The public sample sounds (at most 12) that anyone may hear without a plan, in the same short form as '
    + 'the public REST sample list: id, name, description, tags, duration and a streaming URL (no timing or loudness; '
    + 'use get_sound for those).',
  inputSchema: z.strictObject({
    q: z.string().max(200).optional()
      .describe('Keywords; every word must occur in the name or description (case-insensitive).'),
    tags: listArgument('Tags; a sample carrying any of them matches (OR).'),
    limit: z.int().min(samples.min).max(samples.max).default(samples.default).describe(`How many samples, ${samples.min} to ${samples.max}, default ${samples.default}.`),
  }),
  outputSchema: z.object({ data: z.array(soundSummarySchema), pagination: paginationSchema }),
  annotations: readOnly({ title: 'List the free sample sounds', idempotent: true }),
  async run(args, { services }) {
    const page = await services.catalog.samples({ words: toWords(args.q), tags: toListArgument(args.tags), limit: args.limit });
    // No download_url: the samples' shape is the public one, whoever asks.
    const data = page.items.map((sound) => toSoundSummary(sound, services.signer));
    const pagination = toPagination(1, args.limit, page.total);
    return { structured: { data, pagination }, text: soundListText(data, pagination, 'sample'), links: soundLinks(data) };
  },
});
