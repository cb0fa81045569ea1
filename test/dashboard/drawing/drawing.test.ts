import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { niceCeiling, usageChartSvg, WIDE_CHART } from '../../../src/dashboard/drawing/usage-chart.ts';
import { resamplePeaks } from '../../../src/catalog/waveform.ts';
import { waveformSvg } from '../../../src/dashboard/drawing/waveform.ts';
import { html } from '../../../src/dashboard/html.ts';
import { formatCount, formatDuration, formatWait } from '../../../src/dashboard/pages/format.ts';

describe('html template', () => {
  test('html.escaping: every interpolated string is escaped, nested html is not escaped twice', () => {
    const name = `<b onclick="x">Tom & 'Jerry'</b>`;
    assert.equal(
      html`<p title="${name}">${name}</p>`.text,
      '<p title="&lt;b onclick=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;">&lt;b ' +
        'onclick=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;</p>',
    );
    const inner = html`<i>${'<'}</i>`;
    assert.equal(html`<p>${inner}</p>`.text, '<p><i>&lt;</i></p>');
  });

  test('html.values: lists are joined, false and nullish render nothing, numbers render as text', () => {
    assert.equal(html`<ul>${['a', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.text, '<ul><li>a</li><li>b</li></ul>');
    assert.equal(html`${false}${null}${undefined}${0}`.text, '0');
  });
});

describe('waveform drawing', () => {
  const pathOf = (svg: string) => /d="([^"]+)"/.exec(svg)![1]!;

  test('waveform.short: one peak pair (a 50 ms sound) draws a band across the whole width', () => {
    const svg = waveformSvg([[-0.3, 0.6]], 'Click').text;
    assert.match(pathOf(svg), /^M0,[\d.]+L600,[\d.]+L600,[\d.]+L0,[\d.]+Z$/);
    assert.match(svg, /aria-label="Waveform of Click"/);
  });

  test('waveform.silence: silent and missing waveforms still draw a visible line', () => {
    const silent = pathOf(
      waveformSvg(
        [
          [0, 0],
          [0, 0],
        ],
        'Silence',
      ).text,
    );
    const ys = [...silent.matchAll(/,([\d.]+)/g)].map((m) => Number(m[1]));
    assert.ok(Math.max(...ys) - Math.min(...ys) >= 1.4);
    assert.match(waveformSvg(null, 'Unmeasured').text, /aria-label="No waveform measured for Unmeasured"/);
  });

  test('waveform.long: many pairs are merged into at most 200 columns without losing the extremes', () => {
    const peaks = Array.from({ length: 1000 }, (_, i): [number, number] => [-(i % 7) / 10, (i % 11) / 20]);
    peaks[517] = [-0.95, 0.99];
    const merged = resamplePeaks(peaks, 200);
    assert.equal(merged.length, 200);
    assert.equal(Math.max(...merged.map((pair) => pair[1])), 0.99);
    assert.equal(Math.min(...merged.map((pair) => pair[0])), -0.95);
    assert.equal(pathOf(waveformSvg(peaks, 'Long').text).split('L').length, 400);
  });
});

describe('usage chart drawing', () => {
  test('chart.scale: the axis top is a round number at or above the busiest day', () => {
    assert.deepEqual([0, 3, 7, 12, 99, 2400, 2600].map(niceCeiling), [4, 4, 10, 20, 100, 2500, 5000]);
  });

  test('chart.empty: thirty days without requests still draw thirty bars and a labelled axis', () => {
    const days = Array.from({ length: 30 }, (_, i) => ({ day: `2026-06-${String(i + 1).padStart(2, '0')}`, count: 0 }));
    const svg = usageChartSvg(days, WIDE_CHART).text;
    assert.equal(svg.match(/<rect /g)?.length, 30);
    assert.match(svg, /0 in total\./);
    assert.match(svg, />Today</);
    assert.match(svg, />Jun 23</, 'every seventh day back from today is labelled');
  });
});

describe('page formatting', () => {
  test('format.duration: milliseconds, seconds and minutes read naturally', () => {
    assert.deepEqual([0.05, 0.999, 0.9996, 2.5, 59.96, 95].map(formatDuration), [
      '50 ms',
      '999 ms',
      '1.0 s',
      '2.5 s',
      '1:00',
      '1:35',
    ]);
  });

  test('format.count: whole numbers with thousands separators, as en-US writes them', () => {
    const values = [0, 7, 999, 1000, 2500, 50_000, 86_400, 1_234_567, 12_000_000_000, -1234];
    assert.deepEqual(
      values.map(formatCount),
      values.map((value) => value.toLocaleString('en-US')),
    );
    assert.equal(formatCount(2499.6), '2,500');
  });

  test('format.wait: hours and minutes until the reset', () => {
    assert.deepEqual([30, 60, 3599, 3600, 27_000].map(formatWait), [
      'less than a minute',
      '1 min',
      '1 h',
      '1 h',
      '7 h 30 min',
    ]);
  });
});
