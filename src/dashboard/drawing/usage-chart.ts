import { html, type Html } from '../html.ts';
import { formatCount } from '../pages/format.ts';

export interface DayCount {
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
}

/** The chart is drawn twice: wide for desktops, narrow (bigger text, fewer labels) for phones. */
export interface ChartShape {
  width: number;
  height: number;
  fontSize: number;
  /** Label every n-th day (counted back from today, which is always labelled). */
  labelEvery: number;
  className: string;
}

export const WIDE_CHART: ChartShape = { width: 720, height: 240, fontSize: 12, labelEvery: 7, className: 'chart-wide' };
export const NARROW_CHART: ChartShape = {
  width: 360,
  height: 220,
  fontSize: 13,
  labelEvery: 14,
  className: 'chart-narrow',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function shortDate(day: string): string {
  const [, month, date] = day.split('-');
  return `${MONTHS[Number(month) - 1]} ${Number(date)}`;
}

/** A bar per day, oldest on the left, today highlighted; the axis top is a round number. */
export function usageChartSvg(days: DayCount[], shape: ChartShape): Html {
  const left = shape.fontSize * 3.6;
  const bottom = shape.fontSize * 2.2;
  const top = shape.fontSize;
  const plotWidth = shape.width - left - 4;
  const plotHeight = shape.height - top - bottom;
  const axisMax = niceCeiling(Math.max(...days.map((d) => d.count), 1));
  const slot = plotWidth / days.length;
  const barWidth = Math.max(2, slot * 0.72);
  const baseline = top + plotHeight;
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const peak = days.reduce((best, d) => (d.count > best.count ? d : best), days[0]!);
  const summary =
    `Requests per day over the last ${days.length} days: ${formatCount(total)} in total` +
    (peak.count > 0 ? `, most on ${shortDate(peak.day)} (${formatCount(peak.count)}).` : '.');

  const gridlines = [0, 0.5, 1].map((fraction) => {
    const y = r(baseline - fraction * plotHeight);
    return html`<line class="chart-grid" x1="${r(left)}" y1="${y}" x2="${r(left + plotWidth)}" y2="${y}"/>
<text class="chart-label" x="${r(left - 6)}" y="${y}" text-anchor="end" dominant-baseline="middle" \
font-size="${shape.fontSize}">${compact(axisMax * fraction)}</text>`;
  });
  const bars = days.map((d, i) => {
    const height = d.count === 0 ? 0 : Math.max(2, (d.count / axisMax) * plotHeight);
    const x = r(left + i * slot + (slot - barWidth) / 2);
    const isToday = i === days.length - 1;
    // Today's label ends at the right edge so it is never cut off.
    const labelled = (days.length - 1 - i) % shape.labelEvery === 0;
    return html`\
<rect class="${isToday ? 'chart-bar chart-bar-today' : 'chart-bar'}" x="${x}" y="${r(baseline - height)}" \
width="${r(barWidth)}" height="${r(height)}" rx="2"><title>${shortDate(d.day)}: ${formatCount(d.count)} \
${d.count === 1 ? 'request' : 'requests'}</title></rect>
${
  labelled &&
  html`\
<text class="chart-label" x="${r(isToday ? left + plotWidth : left + i * slot + slot / 2)}" \
y="${r(baseline + shape.fontSize * 1.5)}" text-anchor="${isToday ? 'end' : 'middle'}" \
font-size="${shape.fontSize}">${isToday ? 'Today' : shortDate(d.day)}</text>`
}`;
  });
  return html`\
<svg class="usage-chart ${shape.className}" viewBox="0 0 ${shape.width} ${shape.height}" role="img" \
aria-label="${summary}" focusable="false">
${gridlines}
${bars}
</svg>`;
}

/** 1, 2, 2.5 or 5 times a power of ten: gridline labels people can read at a glance. */
export function niceCeiling(value: number): number {
  if (value <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function compact(value: number): string {
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 1000) return `${trim(value / 1000)}k`;
  return trim(value);
}

function trim(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function r(value: number): string {
  return String(Math.round(value * 10) / 10);
}
