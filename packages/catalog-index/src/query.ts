import type { Category, Sound } from './sound.ts';

/** The fields the catalog is kept sorted by. */
export const SORT_FIELDS = ['downloads', 'created_at', 'duration', 'name'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
/** What a search may be ordered by: a sort field, or how well the sound matches its words. */
export const SEARCH_SORTS = [...SORT_FIELDS, 'relevance'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

/** The counts a search can add beside its page. */
export const FACETS = ['category', 'tags'] as const;
export type Facet = (typeof FACETS)[number];
/** How many tags the tags facet lists, most frequent first. */
export const TOP_TAG_FACETS = 20;

export interface Facets {
  category?: Record<Category, number>;
  tags?: Array<{ tag: string; count: number }>;
}

export interface SearchFilters {
  /** Lower-case words without whitespace; each must occur in the name, the description or a tag. */
  words: string[];
  categories: Category[];
  /** Lower-case tags; a sound must carry all of them. */
  tags: string[];
  minDuration?: number;
  maxDuration?: number;
  /** Sounds whose onset is at most this many milliseconds in; sounds not measured never match. */
  maxOnsetMs?: number;
  /** Integrated loudness bounds in LUFS, inclusive; sounds not measured never match. */
  minLufs?: number;
  maxLufs?: number;
  /** Loops only (true), or sounds that are no loop only (false); absent: both. */
  loop?: boolean;
  /** Sounds whose record changed at or after this time (ms since the epoch). */
  updatedSince?: number;
  sort: SearchSort;
  order: SortOrder;
  /** From 1. */
  page: number;
  /**
   * A cursor walk instead of a page: the sounds after this row key, in the catalog's own order
   * (row keys, which never change); 0 from the start. `sort`, `order` and `page` do not apply.
   */
  after?: number;
  limit: number;
  /** Counts over every match to add beside the page; none when empty or absent. */
  facets?: Facet[];
}

export interface SampleFilters {
  words: string[];
  /** A sound matching any of these is returned. */
  tags: string[];
  limit: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** A page of search results, with the facets that were asked for. */
export interface SearchPage extends Page<Sound> {
  facets?: Facets;
  /** In a cursor walk: the row key to continue after, or null at the end. */
  nextAfter?: number | null;
}
