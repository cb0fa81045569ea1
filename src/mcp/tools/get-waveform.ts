import { z } from 'zod';
import { resamplePeaks, WAVEFORM_POINT_LIMITS, type Peak } from '../../catalog/waveform.ts';
import { notFound } from '../../errors.ts';
import { soundLinks } from '../sound-links.ts';
import { defineTool, readOnly } from '../tool.ts';
import { soundId } from './arguments.ts';

const { min, max, default: fallback } = WAVEFORM_POINT_LIMITS;
/** Columns of the text sketch: enough to see attacks, gaps and tails, short enough to read. */
const SKETCH_COLUMNS = 48;
const LEVELS = '▁▂▃▄▅▆▇█';

export const getWaveformTool = defineTool({
  name: 'get_waveform',
  title: 'Get waveform data',
  description:
    "One sound's waveform as [min, max] sample values (-1..1) per column, to draw it or see where it is loud " +
    'or silent; the text sketches it in one line.',
  inputSchema: z.strictObject({
    id: soundId,
    points: z.int().min(min).max(max).default(fallback).describe('Columns wanted.'),
  }),
  annotations: readOnly({ idempotent: true }),
  async run({ id, points }, { services }) {
    const peaks = await services.catalog.waveform(id, points);
    if (!peaks) throw notFound(`Sound ${id} not found`);
    const waveform = { id, points: peaks.length, peaks };
    const text =
      peaks.length === 0
        ? `No waveform was measured for ${id}.`
        : `Waveform of ${id}: ${peaks.length} [min, max] columns in the structured result. Shape: ${sketch(peaks)}`;
    return { structured: waveform, text, links: soundLinks([{ id }]) };
  },
});

/** One line of block characters, each the loudest magnitude of its stretch relative to the loudest of all. */
export function sketch(peaks: Peak[]): string {
  const columns = resamplePeaks(peaks, Math.min(SKETCH_COLUMNS, peaks.length));
  const magnitudes = columns.map(([low, high]) => Math.max(Math.abs(low), Math.abs(high)));
  const loudest = Math.max(...magnitudes);
  if (loudest === 0) return LEVELS[0]!.repeat(columns.length);
  return magnitudes.map((magnitude) => LEVELS[Math.round((magnitude / loudest) * (LEVELS.length - 1))]).join('');
}
