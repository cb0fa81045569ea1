import { z } from 'zod';
import {
  CATEGORIES,
  FACETS,
  SEARCH_SORTS,
  toList,
  toWords,
  type Category,
  type Facet,
  type SearchFilters,
  type SearchSort,
  type SortOrder,
} from '../catalog/sound.ts';
import { formatFields, refineFormat, type FormatParams } from '../media/format-params.ts';
import { renditionPriceText } from '../media/rendition-work.ts';
import { RENDITION_LOUDNESS, renditionChoice, type RenditionChoice } from '../media/rendition-choice.ts';
import { SEARCH_BOUNDS } from '../catalog/limits.ts';

/**
 * Query parameter schemas. Strict ones (search) refuse bad values with 400; lenient ones are for
 * endpoints that list no 400, where an out-of-range value is clamped and a bad one defaulted.
 */

/** An empty value (`?limit=`) is an error, not zero, which is what plain coercion would make of it. */
const emptyIsInvalid = (value: unknown) => (value === '' ? Number.NaN : value);

export function strictInt(min: number, max: number, fallback: number) {
  return z.preprocess(emptyIsInvalid, z.coerce.number().int().min(min).max(max).default(fallback));
}

export function lenientInt(min: number, max: number, fallback: number) {
  return z.coerce
    .number()
    .int()
    .min(min)
    .max(max)
    .default(fallback)
    .catch(({ value }) => {
      const number = clampedNumber(value, min, max);
      return number === undefined ? fallback : Math.trunc(number);
    });
}

/** A lenient optional number: out of range is clamped, unreadable is as if absent (no 400). */
export function lenientNumber(min: number, max: number) {
  return z.coerce
    .number()
    .min(min)
    .max(max)
    .optional()
    .catch(({ value }) => clampedNumber(value, min, max));
}

/** A decimal number written as a plain string, clamped to [min, max]; undefined for anything else. */
function clampedNumber(value: unknown, min: number, max: number): number | undefined {
  if (typeof value !== 'string' || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Math.min(max, Math.max(min, Number(value)));
}

/** A lenient optional string: a repeated parameter (an array) is read as its first value. */
export function lenientText(description: string) {
  return z
    .preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().optional().catch(undefined))
    .describe(description);
}

export const seconds = z.preprocess(emptyIsInvalid, z.coerce.number().min(0).max(SEARCH_BOUNDS.maxSeconds).optional());

export const categoryList = z
  .string()
  .transform((text, context) => {
    const names = text
      .split(',')
      .map((item) => item.trim().toUpperCase())
      .filter((item) => item.length > 0);
    const unknown = names.filter((name) => !(CATEGORIES as readonly string[]).includes(name));
    if (unknown.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `unknown category ${unknown.join(', ')}; use ${CATEGORIES.join(', ')} (any case)`,
      });
      return z.NEVER;
    }
    return names as Category[];
  })
  .optional();

/** Marks a parameter added to an operation of the API document (OpenAPI: `x-extension`). */
export const EXTENSION = { 'x-extension': true } as const;

/** Milliseconds into a sound, for `max_onset_ms`. */
export const milliseconds = z.preprocess(
  emptyIsInvalid,
  z.coerce.number().min(0).max(SEARCH_BOUNDS.maxOnsetMs).optional(),
);
/** Integrated loudness in LUFS, for `min_lufs` and `max_lufs`. */
export const lufs = z.preprocess(
  emptyIsInvalid,
  z.coerce.number().min(SEARCH_BOUNDS.lufs.min).max(SEARCH_BOUNDS.lufs.max).optional(),
);

/** `loop=true` or `loop=false`, as written; any other value is refused. */
export const loopFilter = z
  .enum(['true', 'false'])
  .transform((value) => value === 'true')
  .optional();

/** `facets=category,tags`: which counts to add beside a search's page. */
export const facetList = z
  .string()
  .transform((text, context) => {
    const names = toList(text);
    const unknown = names.filter((name) => !(FACETS as readonly string[]).includes(name));
    if (unknown.length > 0) {
      context.addIssue({ code: 'custom', message: `unknown facet ${unknown.join(', ')}; use ${FACETS.join(', ')}` });
      return z.NEVER;
    }
    return [...new Set(names)] as Facet[];
  })
  .optional();

export const sortField = z.enum(SEARCH_SORTS).default('downloads');
export const sortOrder = z.enum(['asc', 'desc']).default('desc');

/**
 * Cursors are opaque to clients: a kind and a number (a sound's row key for a walk of the
 * catalog, a change log number for the changes), base64url-encoded. A cursor is read back only
 * in its canonical form and as its own kind; anything else is a 400. A forged cursor can name
 * nothing but a place to start from.
 */
const CURSOR_KINDS = { sounds: 's1', changes: 'c1' } as const;
export type CursorKind = keyof typeof CURSOR_KINDS;

export function encodeCursor(kind: CursorKind, position: number): string {
  return Buffer.from(`${CURSOR_KINDS[kind]}.${position}`).toString('base64url');
}

/** A cursor of this kind to the number it carries; an empty value is the start (0). */
export function cursorOf(kind: CursorKind) {
  const pattern = new RegExp(`^${CURSOR_KINDS[kind]}\\.(0|[1-9][0-9]{0,14})$`);
  return z
    .string()
    .max(64)
    .transform((text, context) => {
      if (text === '') return 0;
      const decoded = /^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, 'base64url').toString('latin1') : '';
      const match = pattern.exec(decoded);
      if (match === null || encodeCursor(kind, Number(match[1])) !== text) {
        context.addIssue({ code: 'custom', message: 'not a cursor this endpoint gave out; start again without it' });
        return z.NEVER;
      }
      return Number(match[1]);
    });
}

/** An ISO 8601 date or date and time (with Z or an offset) to milliseconds since the epoch. */
export const isoTime = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .transform((text) => Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text));

/** The search query's parameters, as parsed by the schemas above, to the catalog's filters. */
export function searchFiltersOf(query: {
  q?: string;
  category?: Category[];
  tags?: string;
  min_duration?: number;
  max_duration?: number;
  max_onset_ms?: number;
  min_lufs?: number;
  max_lufs?: number;
  loop?: boolean;
  facets?: Facet[];
  updated_since?: number;
  sort: SearchSort;
  order: SortOrder;
  page: number;
  limit: number;
  cursor?: number;
}): SearchFilters {
  return {
    words: toWords(query.q),
    categories: query.category ?? [],
    tags: toList(query.tags),
    minDuration: query.min_duration,
    maxDuration: query.max_duration,
    maxOnsetMs: query.max_onset_ms,
    minLufs: query.min_lufs,
    maxLufs: query.max_lufs,
    loop: query.loop,
    updatedSince: query.updated_since,
    after: query.cursor,
    sort: query.sort,
    order: query.order,
    page: query.page,
    limit: query.limit,
    facets: query.facets,
  };
}

/** The bounds of a search that contradict each other, as 400 details (empty when none do). */
export function contradictoryBounds(query: {
  min_duration?: number;
  max_duration?: number;
  min_lufs?: number;
  max_lufs?: number;
}) {
  const details: Array<{ param: string; message: string }> = [];
  if (query.min_duration !== undefined && query.max_duration !== undefined && query.min_duration > query.max_duration) {
    details.push({ param: 'max_duration', message: 'must not be smaller than min_duration' });
  }
  if (query.min_lufs !== undefined && query.max_lufs !== undefined && query.min_lufs > query.max_lufs) {
    details.push({ param: 'max_lufs', message: 'must not be smaller than min_lufs' });
  }
  return details;
}

/**
 * Extension: the rendition a stream or download URL points to (clamped or ignored, never refused:
 * these endpoints list no 400).
 */
export const renditionQuery = z.object({
  loudness: lenientNumber(RENDITION_LOUDNESS.min, RENDITION_LOUDNESS.max)
    .describe(
      `Extension: deliver the sound at this integrated loudness, LUFS (${RENDITION_LOUDNESS.min} to ` +
        `${RENDITION_LOUDNESS.max}, clamped, ` +
        'then rounded to a whole LU: -16.4 and -16 give the same URL and file), true peak at or under -1 dBTP. ' +
        'The media response states the loudness delivered in X-Integrated-LUFS. Making a rendition that is not ' +
        'stored yet ' +
        `costs the account the URL names, when the URL is fetched, ${renditionPriceText()} ` +
        '(429 with the quota body and X-RateLimit headers when the quota cannot cover it; 503 with Retry-After ' +
        'while too many renditions are being made, or when one ran past its time limit and was stopped, which ' +
        'is not charged); serving a stored one costs nothing.',
    )
    .meta(EXTENSION),
  trim: z
    .enum(['true', 'false'])
    .optional()
    .catch(undefined)
    .describe(
      'Extension: true cuts the silence before timing.onset_ms and after timing.tail_ms (a rendition, made and ' +
        'paid for as `loudness` says).',
    )
    .meta(EXTENSION),
});

/**
 * Extension: the file a stream or download URL delivers, when not the catalog's MP3: the one
 * grammar of the format parameters (media/format-params.ts), described for the API document.
 * Strict (a bad value or combination is a 400, said in the descriptions: the API document's
 * operations list no 400 and stay as published), because a clamped format or rate would deliver
 * another file.
 */
export const formatQuery = z.object({
  format: formatFields.format
    .describe(
      'Extension: a bad value of format, sample_rate, channels or bit_depth, or a ' +
        'combination no encoder makes, is answered 400 with details naming the parameter. ' +
        formatFields.format.description,
    )
    .meta(EXTENSION),
  sample_rate: formatFields.sample_rate.describe(`Extension: ${formatFields.sample_rate.description}`).meta(EXTENSION),
  channels: formatFields.channels.describe(`Extension: ${formatFields.channels.description}`).meta(EXTENSION),
  bit_depth: formatFields.bit_depth.describe(`Extension: ${formatFields.bit_depth.description}`).meta(EXTENSION),
});

/** The combination check of the format parameters, for the endpoints that extend formatQuery (packs). */
export { refineFormat };

/** The stream and download endpoints' query: loudness and trim, and the format parameters, checked together. */
export const mediaQuery = renditionQuery.extend(formatQuery.shape).superRefine(refineFormat);

/**
 * The rendition a parsed query asks for: loudness to a whole LU (as signed URLs carry it), trim
 * when true, the file's format.
 */
export function renditionChoiceOf(query: z.output<typeof renditionQuery> & Partial<FormatParams>): RenditionChoice {
  const { format, sample_rate, channels, bit_depth } = query;
  return renditionChoice(query.loudness, query.trim === 'true', { format, sample_rate, channels, bit_depth });
}
