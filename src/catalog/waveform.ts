/**
 * A sound's waveform overview: [min, max] pairs across the sound, in -1..1. Ingest stores
 * WAVEFORM_POINTS pairs; the API, MCP and the dashboard ask for the number of columns they draw.
 */
export type Peak = [number, number];

/** The bounds of `points` on GET /api/v1/sounds/{id}/waveform and get_waveform. */
export const WAVEFORM_POINT_LIMITS = { min: 16, max: 2000, default: 200 } as const;

/**
 * `peaks` as exactly `count` columns. Fewer columns merge their neighbours and keep each one's
 * extremes, so no peak is lost; more columns repeat the stored pair under each one, adding no
 * detail the stored pairs do not have. No stored pairs give none.
 */
export function resamplePeaks(peaks: Peak[], count: number): Peak[] {
  if (peaks.length === 0 || peaks.length === count) return peaks;
  const columns: Peak[] = [];
  for (let column = 0; column < count; column++) {
    const start = Math.floor((column * peaks.length) / count);
    const end = Math.max(start + 1, Math.floor(((column + 1) * peaks.length) / count));
    let min = Infinity;
    let max = -Infinity;
    for (let i = start; i < end; i++) {
      min = Math.min(min, peaks[i]![0]);
      max = Math.max(max, peaks[i]![1]);
    }
    columns.push([min, max]);
  }
  return columns;
}
