import { z } from 'zod';
import { PACK_MAX_SOUNDS } from './service.ts';

/**
 * What the front doors share of a pack: the ids that REST's query and the dashboard's form take,
 * and the answer that REST and MCP give.
 */

/** `ids=a,b,c`: 1 to PACK_MAX_SOUNDS distinct ids, or a 400 that says which rule was broken. */
export const packIds = z
  .string()
  .max(PACK_MAX_SOUNDS * 210)
  .transform((text, context) => {
    const ids = text.split(',').map((id) => id.trim());
    if (ids.some((id) => id === '' || id.length > 200)) {
      context.addIssue({ code: 'custom', message: 'a comma-separated list of sound ids, none empty' });
      return z.NEVER;
    }
    if (ids.length > PACK_MAX_SOUNDS) {
      context.addIssue({ code: 'custom', message: `at most ${PACK_MAX_SOUNDS} sounds in one pack, not ${ids.length}` });
      return z.NEVER;
    }
    const repeated = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
    if (repeated.length > 0) {
      context.addIssue({ code: 'custom', message: `each sound once; repeated: ${repeated.join(', ')}` });
      return z.NEVER;
    }
    return ids;
  });

/** A pack's answer: REST's `data` and the MCP tool's structured content. */
export const packResultSchema = z.object({
  download_url: z.url().describe('Signed URL of the ZIP, valid one hour; the ZIP is built while it downloads.'),
  expires_at: z.iso.datetime().describe('When the URL stops working (ISO 8601, UTC).'),
  sounds: z.int().describe('Sounds in the pack.'),
  estimated_bytes: z
    .int()
    .describe(
      'About how big the ZIP will be: stored files as they are, renditions from their ' +
        "format, rate, channels, depth and duration (MP3 from the original's bytes per second), and the manifests.",
    ),
});
