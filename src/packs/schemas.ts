import { z } from 'zod';
import type { PackOptions } from '../media/signing.ts';
import { type PackNaming, UCS_CREATOR, UCS_SOURCE } from './file-names.ts';
import { PACK_MAX_SOUNDS } from './service.ts';
import { SPRITE_FILES, SPRITE_GAP_SECONDS, SPRITE_MAX_SECONDS, SPRITE_RATE } from './sprite.ts';

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

const NAMING_VALUES = ['default', 'ucs'] as const;
const NAMING_MESSAGE = 'naming is default (<name-slug>-<id>.<ext>) or ucs (CatID_FXName_Creator_Source.<ext>)';

/** REST's query of a pack's options (`naming=ucs`, `sprite=true`): a bad value is a 400 naming the parameter. */
export const packOptionsQuery = z.object({
  naming: z
    .enum(NAMING_VALUES, { message: NAMING_MESSAGE })
    .optional()
    .describe(
      `Extension: how the files are named. default: <name-slug>-<id>.<ext>. ucs: the Universal Category System's ` +
        `CatID_FXName_${UCS_CREATOR}_${UCS_SOURCE}.<ext>, the CatID from the sound's tags (a CatID, or a UCS ` +
        'category and subcategory) else its category (AMBIENT AMBMisc, MUSIC and LOFI MUSCMisc, SFX DSGNMisc), ' +
        'the FXName its name in Title Case, a number added when two would clash; manifest.json and manifest.csv ' +
        'list each file by its name.',
    ),
  sprite: z
    .enum(['true', 'false'], { message: 'sprite is true or false' })
    .optional()
    .describe(
      `Extension: true adds an audio sprite: ${SPRITE_FILES.ogg} and ${SPRITE_FILES.mp3} (gapless LAME tag), ` +
        `every sound end to end at ${SPRITE_RATE} Hz with ${SPRITE_GAP_SECONDS} s of silence between, and ` +
        `${SPRITE_FILES.howler} (Howler.js: [offset ms, duration ms, loop]) and ${SPRITE_FILES.phaser} (Phaser 3 ` +
        'audioSprite: start and end in seconds, loop), to the sample, keyed by file name without extension. ' +
        `At most ${SPRITE_MAX_SECONDS} s of sound (400 past that). Each fetch of the URL pays for it as for two ` +
        'renditions of its length, Ogg and MP3.',
    ),
});

/** The MCP tool's arguments for the same options. */
export const packOptionsArguments = {
  naming: z.enum(NAMING_VALUES).optional().describe('ucs: UCS file names'),
  sprite: z.boolean().optional().describe('Add an Ogg+MP3 audio sprite, Howler/Phaser maps (2 renditions)'),
};

/** The options a pack's URL carries, from either door's parsed input. */
export function packOptionsOf(input: { naming?: PackNaming; sprite?: 'true' | 'false' | boolean }): PackOptions {
  return {
    ...(input.naming === 'ucs' && { naming: 'ucs' as const }),
    ...((input.sprite === true || input.sprite === 'true') && { sprite: true }),
  };
}
