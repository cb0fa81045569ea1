/**
 * The sound and the queries of the catalog: the search engine's own (@sound-catalog/catalog-index),
 * and what only the service adds to them.
 */
export {
  CATEGORIES,
  FACETS,
  SEARCH_SORTS,
  SORT_FIELDS,
  TOP_TAG_FACETS,
  type Category,
  type Facet,
  type Facets,
  type Loop,
  type Loudness,
  type Page,
  type SampleFilters,
  type SearchFilters,
  type SearchPage,
  type SearchSort,
  type Sound,
  type SortField,
  type SortOrder,
  type Timing,
} from '@sound-catalog/catalog-index';
import type { Sound } from '@sound-catalog/catalog-index';

/** A sound with where its file is: what the media route and details read from the database. */
export interface StoredSound extends Sound {
  fileKey: string;
  fileSize: number;
  contentHash: string;
  createdAt: string;
}

/** Splits free text into lower-case words, the one way `q` is read everywhere. */
export function toWords(text: string | undefined): string[] {
  return (text ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

/** Splits a comma-separated list into lower-case, trimmed, non-empty items. */
export function toList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item.length > 0);
}
