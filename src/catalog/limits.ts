/**
 * The list sizes of the API document ("Limits"), defined once: REST, MCP and the dashboard read
 * them from here.
 */
export const LIST_LIMITS = {
  search: { min: 1, max: 100, default: 20 },
  popular: { min: 1, max: 100, default: 30 },
  samples: { min: 1, max: 12, default: 12 },
  /** Extension: GET /api/v1/sounds/{id}/similar and find_similar_sounds. */
  similar: { min: 1, max: 50, default: 10 },
} as const;

/** The highest page number a search accepts (a page past the end is empty, not an error). */
export const MAX_SEARCH_PAGE = 100_000;

/** The bounds of the search filters (REST, MCP and the dashboard): durations, onset and loudness. */
export const SEARCH_BOUNDS = {
  maxSeconds: 86_400,
  maxOnsetMs: 86_400_000,
  lufs: { min: -100, max: 10 },
} as const;

/** Extension: changes per page of GET /api/v1/changes. */
export const CHANGES_PAGE = { min: 1, max: 1000, default: 100 } as const;
