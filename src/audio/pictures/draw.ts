/**
 * The two pictures' pixels, as indices into a palette of their own, row by row from the top (an
 * indexed PNG is a third of an RGB one before deflating, and deflates better). Both share one
 * background, index 0 and the colour map's floor, so silence draws nothing but the background.
 */

type Rgb = readonly [number, number, number];

/** Pixels as palette indices, and the palette. */
export interface IndexedPicture {
  indices: Uint8Array;
  palette: Array<[number, number, number]>;
}

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
/** Shades of the map: more add bytes to the PNG and nothing an eye tells apart at 1.6 dB a shade. */
const SHADES = 64;
const COLOURS = colourTable(SHADES);

/**
 * The waveform, mirrored about the middle: each column as tall as its largest excursion either way
 * (`peaks` holds a [min, max] pair per column, in -1..1). A column of silence draws nothing.
 */
export function drawWaveform(
  peaks: ReadonlyArray<readonly [number, number]>,
  width: number,
  height: number,
): IndexedPicture {
  const indices = new Uint8Array(width * height);
  const middle = height / 2;
  for (let x = 0; x < width; x++) {
    const [min, max] = peaks[x] ?? [0, 0];
    const reach = Math.min(1, Math.max(Math.abs(min), Math.abs(max))) * middle;
    for (let y = 0; y < height; y++) {
      if (Math.abs(y + 0.5 - middle) < reach) indices[y * width + x] = 1;
    }
  }
  return { indices, palette: [[...BACKGROUND], [...WAVEFORM_COLOUR]] };
}

/**
 * The spectrogram: `levels` holds `height` levels (dB) per column, lowest frequency first, drawn at
 * the bottom; SPECTROGRAM_FLOOR_DB and under is background, 0 dB the lightest colour.
 */
export function drawSpectrogram(levels: Float32Array, width: number, height: number): IndexedPicture {
  const indices = new Uint8Array(width * height);
  for (let x = 0; x < width; x++) {
    for (let row = 0; row < height; row++) {
      const level = levels[x * height + row]!;
      if (!(level > SPECTROGRAM_FLOOR_DB)) continue;
      const shade = Math.min(1, (level - SPECTROGRAM_FLOOR_DB) / -SPECTROGRAM_FLOOR_DB);
      indices[(height - 1 - row) * width + x] = Math.round(shade * (SHADES - 1));
    }
  }
  return { indices, palette: COLOURS.map((colour) => [...colour]) };
}

/** `size` colours evenly along the stops, each a straight line between its two; the first is the background. */
function colourTable(size: number): Array<[number, number, number]> {
  return Array.from({ length: size }, (_, i) => {
    const position = (i / (size - 1)) * (COLOUR_STOPS.length - 1);
    const low = Math.min(COLOUR_STOPS.length - 2, Math.floor(position));
    const along = position - low;
    const channel = (c: number) =>
      Math.round(COLOUR_STOPS[low]![c]! + (COLOUR_STOPS[low + 1]![c]! - COLOUR_STOPS[low]![c]!) * along);
    return [channel(0), channel(1), channel(2)];
  });
}
