import { sql, type Selectable } from 'kysely';
import type { SoundsTable } from '../db/schema.ts';
import type { Category, Sound } from './sound.ts';

/** The columns a Sound is made of (the waveform is read on its own, it is large). */
export const SOUND_COLUMNS = [
  'id',
  'name',
  'description',
  'tags',
  'category',
  'license',
  'duration',
  'onset_ms',
  'peak_ms',
  'tail_ms',
  'integrated_lufs',
  'true_peak_db',
  'is_sample',
  'loop_start_sample',
  'loop_end_sample',
  'created_at',
] as const;

/**
 * A sound's download count, from its row of `sound_downloads` (none: never downloaded). Selected
 * beside SOUND_COLUMNS from `sounds` left-joined with `sound_downloads` on the sound's `seq`.
 */
export const DOWNLOADS_COLUMN = sql<number | string>`coalesce(sound_downloads.count, 0)`.as('num_downloads');

export type SoundRow = Pick<Selectable<SoundsTable>, (typeof SOUND_COLUMNS)[number]> & {
  num_downloads: number | string;
};

/** A row of `sounds` as the services see it: the one place column names become field names. */
export function soundOf(row: SoundRow): Sound {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    category: row.category as Category | null,
    license: row.license,
    duration: row.duration,
    timing: { onset_ms: row.onset_ms, peak_ms: row.peak_ms, tail_ms: row.tail_ms },
    loudness: { integrated_lufs: row.integrated_lufs, true_peak_db: row.true_peak_db },
    numDownloads: Number(row.num_downloads),
    isSample: row.is_sample === 1,
    loop:
      row.loop_start_sample === null || row.loop_end_sample === null
        ? null
        : { startSample: Number(row.loop_start_sample), endSample: Number(row.loop_end_sample) },
  };
}
