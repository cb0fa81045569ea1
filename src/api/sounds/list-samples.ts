import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { toList, toWords } from '../../catalog/sound.ts';
import { defineEndpoint } from '../endpoint.ts';
import { paginationSchema, soundSummarySchema } from '../../shapes/schemas.ts';
import { lenientInt, lenientText } from '../../shapes/params.ts';
import { toPagination, toSoundSummary } from '../../shapes/mappers.ts';
import { errorResponses } from './responses.ts';

const { samples } = LIST_LIMITS;

export const listSamples = defineEndpoint({
  method: 'GET',
  url: '/api/v1/sounds/sample',
  operationId: 'listSampleSounds',
  summary: 'List free sample sounds',
  description:
    'Up to 12 public sample sounds, no API key needed. Out-of-range values are clamped, unknown parameters ignored.',
  tag: 'Samples',
  security: 'public',
  query: z.object({
    q: lenientText('Case-insensitive keyword match on name and description.'),
    tags: lenientText('Comma-separated tags; a sound matching any of them is returned.'),
    limit: lenientInt(samples.min, samples.max, samples.default).describe(
      `${samples.min} to ${samples.max}, default ${samples.default}.`,
    ),
  }),
  responses: {
    200: {
      description: 'Sample sounds.',
      schema: z.object({
        data: z.array(soundSummarySchema),
        pagination: paginationSchema,
        meta: z.object({ message: z.string(), upgrade_url: z.url() }),
      }),
    },
    500: errorResponses[500],
  },
  async handler({ query, services }) {
    const page = await services.catalog.samples({
      words: toWords(query.q),
      tags: toList(query.tags),
      limit: query.limit,
    });
    return {
      data: page.items.map((sound) => toSoundSummary(sound, services.signer)),
      pagination: toPagination(1, query.limit, page.total),
      meta: {
        message:
          'These are free samples. Sign up for a Pro or Enterprise plan to search and download the full catalog.',
        upgrade_url: `${services.baseUrl()}/dashboard`,
      },
    };
  },
});
