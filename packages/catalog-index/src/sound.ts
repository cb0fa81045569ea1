/** What a sound's timing measures are: milliseconds from its start; null when not measured. */
export interface Timing {
  onset_ms: number | null;
  peak_ms: number | null;
  tail_ms: number | null;
}

/** Integrated loudness (LUFS) and true peak (dBTP); null when not measured. */
export interface Loudness {
  integrated_lufs: number | null;
  true_peak_db: number | null;
}

/**
 * Where a sound loops: sample frames of the catalog's file from its start, `startSample` the first
 * frame of the loop and `endSample` the frame after its last (exclusive), 0 <= start < end.
 */
export interface Loop {
  startSample: number;
  endSample: number;
}

export const CATEGORIES = ['SFX', 'MUSIC', 'LOFI', 'AMBIENT'] as const;
export type Category = (typeof CATEGORIES)[number];

/** A sound as the index hands it out: what lists show. */
export interface Sound {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  category: Category | null;
  license: string | null;
  duration: number;
  timing: Timing;
  loudness: Loudness;
  numDownloads: number;
  isSample: boolean;
  /** Where the sound loops; null when it is not a loop. */
  loop: Loop | null;
}

/** One sound as it goes into the index: what lists show, and what they sort and filter by. */
export interface CatalogRecord extends Sound {
  /**
   * The sound's row key: a small integer, never reused, that only grows as sounds are added. The
   * index is told of changes and removals by it, and cursor walks follow its order.
   */
  seq: number;
  createdAt: string;
  /** When the record last changed (ISO 8601); the creation time when absent. */
  updatedAt?: string;
  /** The numbers similar sounds are found by (as many as the index's weights); null or absent when not measured. */
  descriptors?: number[] | null;
}
