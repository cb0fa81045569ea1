import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKGROUND, drawSpectrogram, drawWaveform } from '../../../src/audio/pictures/draw.ts';
import { FFT_SIZE, LOWEST_HZ, SpectrogramBuilder } from '../../../src/audio/pictures/spectrogram.ts';
import { WaveformBuilder } from '../../../src/audio/analyze/waveform.ts';

const RATE = 44_100;
const COLUMNS = 120;
const ROWS = 60;

/** Feeds `seconds` of audio in chunks of 4096, sample by sample from `at(t)`. */
function feed(
  builder: { push(channels: Float32Array[], frames: number): void },
  seconds: number,
  at: (t: number) => number,
) {
  const total = Math.round(seconds * RATE);
  for (let start = 0; start < total; start += 4096) {
    const chunk = new Float32Array(Math.min(4096, total - start));
    for (let i = 0; i < chunk.length; i++) chunk[i] = at((start + i) / RATE);
    builder.push([chunk, chunk], chunk.length);
  }
}

/** The row a frequency falls in, on the builder's logarithmic axis. */
const rowOf = (hz: number) => Math.floor((ROWS * Math.log(hz / LOWEST_HZ)) / Math.log(RATE / 2 / LOWEST_HZ));

describe('audio.pictures: spectrogram and waveform columns from a stream of any length', () => {
  test('spectrogram.silence: silence has no level anywhere and draws only the background', () => {
    const builder = new SpectrogramBuilder(RATE, COLUMNS, ROWS);
    feed(builder, 3, () => 0);
    const levels = builder.finish();
    assert.ok(levels.every((level) => level === -Infinity));
    const { indices, palette } = drawSpectrogram(levels, COLUMNS, ROWS);
    assert.ok(indices.every((index) => index === 0));
    assert.deepEqual(palette[0], [...BACKGROUND]);
  });

  for (const seconds of [0.5, 30, 120]) {
    test(`spectrogram.time: ${seconds} s, a tone only in its second half lights the right columns and row`, () => {
      const builder = new SpectrogramBuilder(RATE, COLUMNS, ROWS);
      feed(builder, seconds, (t) => (t >= seconds / 2 ? 0.5 * Math.sin(2 * Math.PI * 1000 * t) : 0));
      const levels = builder.finish();
      assert.equal(levels.length, COLUMNS * ROWS, 'the same size whatever the length');
      const strongestRow = (column: number) => {
        const slice = levels.subarray(column * ROWS, (column + 1) * ROWS);
        return slice.indexOf(Math.max(...slice));
      };
      // A column's window ends where the column does: it sees the tone fully only FFT_SIZE samples after it starts.
      const late = Math.ceil(FFT_SIZE / ((seconds * RATE) / COLUMNS)) + 1;
      for (let column = 0; column < COLUMNS / 2 - 1; column++) {
        assert.equal(Math.max(...levels.subarray(column * ROWS, (column + 1) * ROWS)), -Infinity, `column ${column}`);
      }
      for (let column = COLUMNS / 2 + late; column < COLUMNS; column++) {
        assert.ok(Math.abs(strongestRow(column) - rowOf(1000)) <= 1, `column ${column}: row ${strongestRow(column)}`);
        const peak = Math.max(...levels.subarray(column * ROWS, (column + 1) * ROWS));
        // A sine of amplitude 0.5 is -6 dB against a full-scale one.
        assert.ok(Math.abs(peak - -6) < 1.5, `column ${column}: ${peak.toFixed(1)} dB`);
      }
    });
  }

  test('waveform.columns: as many [min, max] columns as asked, the loud part where it is, mirrored when drawn', () => {
    const builder = new WaveformBuilder(COLUMNS);
    feed(builder, 10, (t) => (t < 5 ? 0 : 0.5 * Math.sin(2 * Math.PI * 200 * t)));
    const peaks = builder.finish();
    assert.equal(peaks.length, COLUMNS);
    const { indices } = drawWaveform(peaks, COLUMNS, ROWS);
    const drawnIn = (column: number) => {
      const rows: number[] = [];
      for (let y = 0; y < ROWS; y++) if (indices[y * COLUMNS + column] !== 0) rows.push(y);
      return rows;
    };
    assert.deepEqual(drawnIn(10), [], 'silence draws nothing');
    const loud = drawnIn(100);
    assert.equal(loud.length, ROWS / 2, 'half the height at amplitude 0.5');
    assert.equal(loud[0]! + loud.at(-1)!, ROWS - 1, 'mirrored about the middle');
  });
});
