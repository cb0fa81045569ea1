/**
 * The two pictures' pixels, RGB, row by row from the top. Both share one background, the colour
 * map's floor, so silence draws nothing but the background in either.
 */

type Rgb = readonly [number, number, number];

export const BACKGROUND: Rgb = [0, 0, 4];
/** The waveform's colour: a light blue that reads on the dark background. */
const WAVEFORM_COLOUR: Rgb = [94, 201, 248];
/** Levels at or under this (dB against a full-scale sine) are background in the spectrogram. */
export const SPECTROGRAM_FLOOR_DB = -100;
/**
 * A perceptually ordered map from dark to light (the stops of matplotlib's "inferno"), so a
 * louder part is always a lighter one; its first stop is the background.
 */
const COLOUR_STOPS: readonly Rgb[] = [
  BACKGROUND,
  [40, 11, 84],
  [101, 21, 110],
  [159, 42, 99],
  [212, 72, 66],
  [245, 125, 21],
  [250, 193, 39],
  [252, 255, 164],
];
const COLOURS = colourTable(256);

/**
 * The waveform, mirrored about the middle: each column as tall as its largest excursion either way
 * (`peaks` holds a [min, max] pair per column, in -1..1). A column of silence draws nothing.
 */
export function drawWaveform(
  peaks: ReadonlyArray<readonly [number, number]>,
  width: number,
  height: number,
): Uint8Array {
  const pixels = filled(width, height);
  const middle = height / 2;
  for (let x = 0; x < width; x++) {
    const [min, max] = peaks[x] ?? [0, 0];
    const reach = Math.min(1, Math.max(Math.abs(min), Math.abs(max))) * middle;
    for (let y = 0; y < height; y++) {
      if (Math.abs(y + 0.5 - middle) < reach) pixels.set(WAVEFORM_COLOUR, (y * width + x) * 3);
    }
  }
  return pixels;
}

/**
 * The spectrogram: `levels` holds `height` levels (dB) per column, lowest frequency first, drawn at
 * the bottom; SPECTROGRAM_FLOOR_DB and under is background, 0 dB the lightest colour.
 */
export function drawSpectrogram(levels: Float32Array, width: number, height: number): Uint8Array {
  const pixels = filled(width, height);
  for (let x = 0; x < width; x++) {
    for (let row = 0; row < height; row++) {
      const level = levels[x * height + row]!;
      if (!(level > SPECTROGRAM_FLOOR_DB)) continue;
      const shade = Math.min(1, (level - SPECTROGRAM_FLOOR_DB) / -SPECTROGRAM_FLOOR_DB);
      const index = Math.round(shade * (COLOURS.length / 3 - 1));
      const at = ((height - 1 - row) * width + x) * 3;
      pixels[at] = COLOURS[index * 3]!;
      pixels[at + 1] = COLOURS[index * 3 + 1]!;
      pixels[at + 2] = COLOURS[index * 3 + 2]!;
    }
  }
  return pixels;
}

function filled(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels.set(BACKGROUND, i);
  return pixels;
}

/** `size` colours evenly along the stops, each a straight line between its two stops. */
function colourTable(size: number): Uint8Array {
  const table = new Uint8Array(size * 3);
  for (let i = 0; i < size; i++) {
    const position = (i / (size - 1)) * (COLOUR_STOPS.length - 1);
    const low = Math.min(COLOUR_STOPS.length - 2, Math.floor(position));
    const along = position - low;
    for (let c = 0; c < 3; c++) {
      table[i * 3 + c] = Math.round(
        COLOUR_STOPS[low]![c]! + (COLOUR_STOPS[low + 1]![c]! - COLOUR_STOPS[low]![c]!) * along,
      );
    }
  }
  return table;
}
