import { z } from 'zod';
import { CATEGORIES, TOP_TAG_FACETS, type Category } from '../catalog/sound.ts';

/**
 * The shapes of the API document, once. Each is registered under its OpenAPI component name;
 * the published document and the TypeScript types both come from here.
 */
export const components = z.registry<{ id: string; 'x-extension'?: true }>();

const url = z.url();

export const soundSummarySchema = z
  .object({
    id: z.string().describe('Opaque sound identifier, used in paths.'),
    name: z.string(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    duration: z.number().describe('Seconds of audio (after gapless trimming).'),
    stream_url: url.describe('Signed URL to stream the MP3; works without headers for one hour.'),
    download_url: url.optional().describe('Signed download URL; present only on authenticated endpoints.'),
  })
  .register(components, { id: 'SoundSummary' });

export const timingSchema = z
  .object({
    onset_ms: z
      .number()
      .nullable()
      .describe('When the sound starts: milliseconds to the first sample above the threshold.'),
    peak_ms: z
      .number()
      .nullable()
      .describe('When it is loudest: milliseconds to the first sample of largest magnitude.'),
    tail_ms: z.number().nullable().describe('When it has died away: 40 dB below its peak or into its noise floor.'),
  })
  .describe('Null fields mean digital silence.')
  .register(components, { id: 'Timing' });

export const loudnessSchema = z
  .object({
    integrated_lufs: z.number().nullable().describe('Integrated loudness per ITU-R BS.1770-4 / EBU R128, LUFS.'),
    true_peak_db: z.number().nullable().describe('Maximum true peak, dBTP (4x oversampled).'),
  })
  .describe('Null fields mean digital silence.')
  .register(components, { id: 'Loudness' });

/** Extension: where a sound loops (Sound.loop). */
export const loopSchema = z
  .object({
    start_sample: z.int().min(0).describe('The first sample frame of the loop, counted from 0.'),
    end_sample: z
      .int()
      .min(1)
      .describe("The frame after the loop's last: the loop is start_sample <= frame < end_sample (end exclusive)."),
  })
  .describe(
    "Sample frames of the catalog's MP3, at its own sample rate, counted from its first decoded frame (after " +
      'gapless trimming). A source at a rate MP3 lacks (a 96 kHz WAV is stored at 48 kHz) had its loop points ' +
      'scaled to that rate and rounded to the nearest frame. end_sample is exclusive, unlike a WAV smpl ' +
      "chunk's end (its last frame, included), which is one less.",
  )
  .register(components, { id: 'Loop', 'x-extension': true });

export const soundSchema = soundSummarySchema
  .extend({
    category: z.enum(CATEGORIES).nullable(),
    license: z.string().nullable().describe('CC0 for catalog sounds.'),
    timing: timingSchema,
    loudness: loudnessSchema,
    loop: loopSchema
      .nullable()
      .describe(
        'Extension: where the sound loops (a music or lo-fi loop, or a source with loop points); null when it is ' +
          'no loop. Search with loop=true for loops only.',
      ),
  })
  .register(components, { id: 'Sound' });

export const popularSoundSchema = soundSchema
  .extend({
    numDownloads: z.int().min(0).describe('All-time download count used for ranking.'),
  })
  .register(components, { id: 'PopularSound' });

/** Extension: one answer of GET /api/v1/sounds/{id}/similar. */
export const similarSoundSchema = soundSchema
  .extend({
    similarity: z
      .number()
      .min(0)
      .max(1)
      .describe('How alike the two sound, from 1 (the same descriptors) down; about 0.37 for an unrelated pair.'),
  })
  .register(components, { id: 'SimilarSound', 'x-extension': true });

export const paginationSchema = z
  .object({
    page: z.int(),
    limit: z.int().describe('Page size applied.'),
    total: z.int().describe('Total sounds matching the query.'),
    totalPages: z.int(),
  })
  .register(components, { id: 'Pagination' });

/**
 * Extension: the pagination of a page of a cursor walk (search and popular with `cursor`, and the
 * MCP tools that walk): the API document's, and the cursor that continues the walk. A page asked
 * by `page`, or without a cursor, is paginated as the API document says and has no next_cursor.
 */
export const cursorPaginationSchema = paginationSchema
  .extend({
    next_cursor: z.string().nullable().describe('The `cursor` of the next page of the walk; null at its end.'),
  })
  .register(components, { id: 'CursorPagination', 'x-extension': true });

/**
 * A list that can also be walked by cursor: CursorPagination in a walk, Pagination for a page asked
 * without one. The wider shape comes first: a union's value is read (zod) and written
 * (fast-json-stringify) as its first matching member, and a walk's pagination matches both.
 */
export const pageOrCursorPaginationSchema = z.union([cursorPaginationSchema, paginationSchema]);

/** Extension: one change of the catalog, as GET /api/v1/changes lists it. */
export const catalogChangeSchema = z
  .object({
    id: z.string().describe('The sound.'),
    change: z
      .enum(['added', 'updated', 'removed'])
      .describe('What changed in the record: download counts are not the record and never appear here.'),
    at: z.string().describe('When the change was made (ISO 8601, UTC).'),
  })
  .register(components, { id: 'CatalogChange', 'x-extension': true });

/** Extension: counts over every match of a search, asked for with `facets=`. */
export const facetsSchema = z
  .object({
    category: z
      .object(
        Object.fromEntries(CATEGORIES.map((category) => [category, z.int().min(0)])) as Record<Category, z.ZodInt>,
      )
      .optional()
      .describe('Matches per category; every category is listed.'),
    tags: z
      .array(z.object({ tag: z.string(), count: z.int().min(1) }))
      .optional()
      .describe(`The ${TOP_TAG_FACETS} most frequent tags among the matches, most frequent first, then by tag.`),
  })
  .register(components, { id: 'Facets', 'x-extension': true });

/** Extension: GET /api/v1/sounds/{id}/waveform. */
export const waveformSchema = z
  .object({
    id: z.string(),
    points: z.int().min(0).describe('Columns in peaks: the number asked for, or 0 when the sound was never measured.'),
    peaks: z
      .array(z.tuple([z.number().min(-1).max(1), z.number().min(-1).max(1)]))
      .describe('[min, max] sample values of each column, left to right across the whole sound, in -1..1.'),
  })
  .register(components, { id: 'Waveform', 'x-extension': true });

export const streamResultSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    stream_url: url.describe('Signed; expires in one hour.'),
  })
  .register(components, { id: 'StreamResult' });

export const downloadResultSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    download_url: url.describe('Signed; expires in one hour.'),
    expires_in: z.int().describe('Seconds until the URL expires (3600).'),
  })
  .register(components, { id: 'DownloadResult' });

export const errorSchema = z.object({ error: z.string() }).register(components, { id: 'Error' });

export const validationErrorSchema = errorSchema
  .extend({
    details: z.array(z.object({ param: z.string(), message: z.string() })),
  })
  .register(components, { id: 'ValidationError' });

export const upgradeErrorSchema = errorSchema
  .extend({ upgrade_url: url })
  .register(components, { id: 'UpgradeRequiredError' });

export const quotaErrorSchema = errorSchema
  .extend({
    limit: z.int().describe('The daily quota.'),
    reset: z.int().describe('Unix timestamp of the next reset (midnight UTC).'),
  })
  .register(components, { id: 'QuotaExceededError' });

/** Extension: GET /api/v1/changes when the log no longer reaches back to `since`. */
export const changesGoneSchema = errorSchema
  .extend({
    next_cursor: z.string().describe('Walk the catalog again (search with `cursor`), then follow changes from here.'),
  })
  .register(components, { id: 'ChangesGone', 'x-extension': true });

export type SoundSummaryBody = z.infer<typeof soundSummarySchema>;
export type SoundBody = z.infer<typeof soundSchema>;
export type PopularSoundBody = z.infer<typeof popularSoundSchema>;
export type SimilarSoundBody = z.infer<typeof similarSoundSchema>;
export type PaginationBody = z.infer<typeof paginationSchema>;
export type CursorPaginationBody = z.infer<typeof cursorPaginationSchema>;
export type TimingBody = z.infer<typeof timingSchema>;
export type LoudnessBody = z.infer<typeof loudnessSchema>;
export type LoopBody = z.infer<typeof loopSchema>;
export type FacetsBody = z.infer<typeof facetsSchema>;
