/**
 * The catalog's search and similar-sounds engine: the public entry point, and the only one. The
 * README beside this folder gives the contract; everything not exported here is internal.
 */
export { SearchIndex, type SearchIndexOptions } from './search-index.ts';
export { SimilarityIndex, type Neighbour } from './similar.ts';
export {
  decodeRankCursor,
  encodeRankCursor,
  popularWalk,
  type RankedSearch,
  type RankPage,
  type RankPlace,
} from './popular-walk.ts';
export {
  CATEGORIES,
  type CatalogRecord,
  type Category,
  type Loop,
  type Loudness,
  type Sound,
  type Timing,
} from './sound.ts';
export {
  FACETS,
  SEARCH_SORTS,
  SORT_FIELDS,
  TOP_TAG_FACETS,
  type Facet,
  type Facets,
  type Page,
  type SampleFilters,
  type SearchFilters,
  type SearchPage,
  type SearchSort,
  type SortField,
  type SortOrder,
} from './query.ts';
