import { resamplePeaks, type Peak } from '../../catalog/waveform.ts';
import { html, trusted, type Html } from '../html.ts';

const WIDTH = 600;
const HEIGHT = 80;
const MIDDLE = HEIGHT / 2;
/** More columns than this add bytes, not detail, at the widths a waveform is shown. */
const WAVEFORM_COLUMNS = 200;
/** Silence still shows as a visible line. */
const MIN_THICKNESS = 1.5;

/**
 * Draws [min, max] peak pairs as one filled shape: the top edge follows the maxima, the bottom
 * edge the minima. One pair (a sound of a few milliseconds) spans the full width as a band.
 * Peaks are scaled to the loudest one, so quiet sounds keep a readable shape.
 */
export function waveformSvg(peaks: Peak[] | null, label: string): Html {
  const columns =
    peaks && peaks.length > 0 ? resamplePeaks(peaks, Math.min(peaks.length, WAVEFORM_COLUMNS)) : [[0, 0] as Peak];
  const loudest = Math.max(1e-6, ...columns.map(([min, max]) => Math.max(Math.abs(min), Math.abs(max))));
  const scale = (MIDDLE - 2) / loudest;
  const xs = columns.length === 1 ? [0, WIDTH] : columns.map((_, i) => (i * WIDTH) / (columns.length - 1));
  const points = columns.length === 1 ? [columns[0]!, columns[0]!] : columns;
  const edges = points.map(([min, max]) => {
    let top = MIDDLE - Math.max(min, max) * scale;
    let bottom = MIDDLE - Math.min(min, max) * scale;
    if (bottom - top < MIN_THICKNESS) {
      const centre = (top + bottom) / 2;
      [top, bottom] = [centre - MIN_THICKNESS / 2, centre + MIN_THICKNESS / 2];
    }
    return { top, bottom };
  });
  const upper = edges.map((edge, i) => `${round(xs[i]!)},${round(edge.top)}`);
  const lower = edges.map((edge, i) => `${round(xs[i]!)},${round(edge.bottom)}`).reverse();
  const path = `M${upper.join('L')}L${lower.join('L')}Z`;
  const description = peaks && peaks.length > 0 ? `Waveform of ${label}` : `No waveform measured for ${label}`;
  return html`\
<svg class="waveform" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" \
aria-label="${description}" focusable="false">
<line class="waveform-axis" x1="0" y1="${MIDDLE}" x2="${WIDTH}" y2="${MIDDLE}"/>
<path class="waveform-shape" d="${trusted(path)}"/>
</svg>`;
}

function round(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}
