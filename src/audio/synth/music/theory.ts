/** Just enough music theory for loops: keys, diatonic chords and their names. */

export type Mode = 'major' | 'minor';

const SHARP_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;
const FLAT_NAMES = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'Gb', 'G', 'Ab', 'A', 'Bb', 'B'] as const;
/** Tonics whose key signature has flats; the others are spelled with sharps (or need neither). */
const FLAT_TONICS: Readonly<Record<Mode, readonly number[]>> = { major: [5, 10, 3, 8, 1], minor: [2, 7, 0, 5, 10, 3] };
const SCALES: Readonly<Record<Mode, readonly number[]>> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
};

export function midiToHz(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}

/** Semitones above the tonic of any scale step; steps past 6 or below 0 change octave. */
export function scaleSemitone(mode: Mode, step: number): number {
  const octave = Math.floor(step / 7);
  return octave * 12 + SCALES[mode][step - octave * 7]!;
}

/** Chord on a scale degree (0-based) built by stacking thirds within the scale. */
export function diatonicChord(mode: Mode, degree: number, size: 3 | 4): number[] {
  const tones: number[] = [];
  for (let i = 0; i < size; i++) tones.push(scaleSemitone(mode, degree + 2 * i));
  return tones;
}

const QUALITIES: Readonly<Record<string, string>> = {
  '4,7': '',
  '3,7': 'm',
  '3,6': 'dim',
  '4,7,11': 'maj7',
  '3,7,10': 'm7',
  '4,7,10': '7',
  '3,6,10': 'm7b5',
};

/** Spells a pitch class the way the key's signature does: Db in A-flat major, C# in A major. */
export function noteName(pitchClass: number, tonic: number, mode: Mode): string {
  const names = FLAT_TONICS[mode].includes(tonic) ? FLAT_NAMES : SHARP_NAMES;
  return names[((pitchClass % 12) + 12) % 12]!;
}

/** "Dm7", "Cmaj7", "G": the symbol a musician would write for a diatonic chord. */
export function chordSymbol(tonic: number, mode: Mode, chord: readonly number[]): string {
  const root = chord[0]!;
  const intervals = chord.slice(1).map((tone) => tone - root);
  return noteName(tonic + root, tonic, mode) + (QUALITIES[intervals.join(',')] ?? '');
}

/** "F# minor". */
export function keyLabel(tonic: number, mode: Mode): string {
  return `${noteName(tonic, tonic, mode)} ${mode}`;
}

/** "f-sharp-minor", "b-flat-major": a tag that survives search tokenizers dropping "#". */
export function keyTag(tonic: number, mode: Mode): string {
  const name = noteName(tonic, tonic, mode);
  const letter = name.charAt(0).toLowerCase();
  const accidental = name.length > 1 ? (name.endsWith('#') ? '-sharp' : '-flat') : '';
  return `${letter}${accidental}-${mode}`;
}

/** Progressions as 0-based scale degrees, one chord per bar. */
export const PROGRESSIONS: Readonly<
  Record<Mode, Readonly<Record<'triads' | 'sevenths', readonly (readonly number[])[]>>>
> = {
  major: {
    triads: [
      [0, 4, 5, 3],
      [0, 5, 3, 4],
      [5, 3, 0, 4],
      [0, 3, 4, 3],
      [0, 3, 5, 4],
    ],
    sevenths: [
      [1, 4, 0, 5],
      [0, 5, 1, 4],
      [3, 2, 1, 0],
      [3, 4, 2, 5],
      [0, 3, 1, 4],
    ],
  },
  minor: {
    triads: [
      [0, 5, 2, 6],
      [0, 6, 5, 6],
      [0, 3, 6, 2],
      [0, 5, 3, 4],
      [5, 6, 0, 0],
    ],
    sevenths: [
      [0, 3, 6, 2],
      [0, 5, 3, 4],
      [3, 6, 2, 5],
      [0, 3, 0, 4],
      [5, 4, 0, 0],
    ],
  },
};
