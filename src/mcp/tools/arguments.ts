import { z } from 'zod';
import { CATEGORIES, toList } from '../../catalog/sound.ts';
import { formatFields, refineFormat } from '../../media/format-params.ts';
import { RENDITION_LOUDNESS } from '../../media/rendition-choice.ts';

/** Input pieces several tools share, described for an agent. */

export const soundId = z.string().trim().min(1).max(200).describe('A sound id from results.');

/**
 * A list given either as a JSON array of strings or as one comma-separated string: agents write
 * both, and the REST API takes the comma form. `toListArgument` reads either the REST way.
 */
export function listArgument(itemDescription: string) {
  return z
    .union([z.array(z.string().max(100)).max(20), z.string().max(500)], {
      error: 'expected an array of at most 20 strings or one comma-separated string of at most 500 characters',
    })
    .optional()
    .describe(`${itemDescription} Array or comma-separated, any case.`);
}

export function toListArgument(value: string | string[] | undefined): string[] {
  return toList(Array.isArray(value) ? value.join(',') : value);
}

const categoryName = z.enum(CATEGORIES);
const upperCase = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

/** One category or several (any of them matches); lower case is accepted like on REST. */
export const categoryArgument = z
  .preprocess(
    (value) => (Array.isArray(value) ? value.map(upperCase) : upperCase(value)),
    z.union([categoryName, z.array(categoryName).min(1).max(CATEGORIES.length)], {
      error: `expected one of ${CATEGORIES.join(', ')} (any case), or an array of them`,
    }),
  )
  .optional()
  .describe('SFX, MUSIC, LOFI or AMBIENT, or an array of them (any matches).');

export function toCategories(value: z.output<typeof categoryArgument>): Array<(typeof CATEGORIES)[number]> {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The rendition arguments of get_stream_url and get_download_url (the REST endpoints' `loudness` and `trim`). */
export const renditionArguments = {
  loudness: z
    .number()
    .min(RENDITION_LOUDNESS.min)
    .max(RENDITION_LOUDNESS.max)
    .optional()
    .describe(
      'Target integrated LUFS (-16 games, -23 broadcast), true peak at most -1 dBTP. ' +
        'A new rendition costs quota (get_quota).',
    ),
  trim: z.boolean().optional().describe('true cuts the silence before onset_ms and after tail_ms.'),
};

/**
 * The format arguments of the URL tools: the REST endpoints' format parameters, parsed by the same
 * schemas (JSON numbers or digit strings), checked together by `refineFormat` (a tool error).
 */
export const formatArguments = formatFields;
export { refineFormat };
