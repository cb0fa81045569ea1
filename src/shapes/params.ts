import { z } from 'zod';
import { CATEGORIES, SORT_FIELDS, toList, toWords, type Category, type SearchFilters, type SortField, type SortOrder } from '../catalog/sound.ts';

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
  return z.coerce.number().int().min(min).max(max).default(fallback).catch(({ value }) => {
    const number = typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Math.trunc(Number(value)) : NaN;
    return Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : fallback;
  });
}

/** A lenient optional string: a repeated parameter (an array) is read as its first value. */
export function lenientText(description: string) {
  return z.preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().optional().catch(undefined))
    .describe(description);
}

export const seconds = z.preprocess(emptyIsInvalid, z.coerce.number().min(0).max(86_400).optional());

export const categoryList = z.string()
  .transform((text, context) => {
    const names = text.split(',').map((item) => item.trim().toUpperCase()).filter((item) => item.length > 0);
    const unknown = names.filter((name) => !(CATEGORIES as readonly string[]).includes(name));
    if (unknown.length > 0) {
      context.addIssue({ code: 'custom', message: `unknown category ${unknown.join(', ')}; use ${CATEGORIES.join(', ')} (any case)` });
      return z.NEVER;
    }
    return names as Category[];
  })
  .optional();

export const sortField = z.enum(SORT_FIELDS).default('downloads');
export const sortOrder = z.enum(['asc', 'desc']).default('desc');

/** The search query's parameters, as parsed by the schemas above, to the catalog's filters. */
export function searchFiltersOf(query: {
  q?: string; category?: Category[]; tags?: string; min_duration?: number; max_duration?: number;
  sort: SortField; order: SortOrder; page: number; limit: number;
}): SearchFilters {
  return {
    words: toWords(query.q),
    categories: query.category ?? [],
    tags: toList(query.tags),
    minDuration: query.min_duration,
    maxDuration: query.max_duration,
    sort: query.sort,
    order: query.order,
    page: query.page,
    limit: query.limit,
  };
}
