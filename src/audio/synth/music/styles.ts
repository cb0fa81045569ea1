/**
 * Musical styles as data: tempo, harmony, drum and bass patterns, instruments and the words that
 * describe them. Patterns are 16 steps per bar (sixteenth notes): 'x' plays, '.' rests; bass
 * patterns name the note: R root, F fifth, O octave.
 */

export type ChordVoice = 'pad' | 'ep' | 'stab' | 'pluck' | 'arp';
export type BassVoice = 'sub' | 'saw' | 'triangle' | 'upright';
export type LeadVoice = 'square' | 'saw' | 'bell' | 'pluck' | 'triangle';
export type DrumFlavor = 'punchy' | 'soft' | 'chip';

export interface DrumPatterns {
  kick: readonly string[];
  snare: readonly string[];
  hat: readonly string[];
  flavor: DrumFlavor;
}

export interface MusicStyle {
  label: string;
  category: 'MUSIC' | 'LOFI';
  tempo: readonly [number, number];
  majorChance: number;
  sevenths: boolean;
  /** Delay of every other sixteenth, as a fraction of a sixteenth. */
  swing: readonly [number, number];
  drums: DrumPatterns | null;
  bass: BassVoice;
  bassRhythms: readonly string[];
  chords: ChordVoice;
  chordRhythms: readonly string[];
  lead: LeadVoice | null;
  leadChance: number;
  reverbWet: number;
  tags: readonly string[];
}

const BACKBEAT = ['....x.......x...'];
const EIGHTH_HATS = ['x.x.x.x.x.x.x.x.'];
const WHOLE_BAR = ['x...............'];

export const STYLES: readonly MusicStyle[] = [
  {
    label: 'Synthwave',
    category: 'MUSIC',
    tempo: [90, 118],
    majorChance: 0.4,
    sevenths: false,
    swing: [0, 0],
    drums: {
      kick: ['x...x...x...x...'],
      snare: BACKBEAT,
      hat: ['..x...x...x...x.', EIGHTH_HATS[0]!],
      flavor: 'punchy',
    },
    bass: 'saw',
    bassRhythms: ['R.R.R.R.R.R.R.R.', 'R.RORR.RR.RORR.R'],
    chords: 'pad',
    chordRhythms: WHOLE_BAR,
    lead: 'saw',
    leadChance: 0.7,
    reverbWet: 0.35,
    tags: ['synthwave', 'retro', '80s', 'synth', 'electronic', 'neon'],
  },
  {
    label: 'Chiptune',
    category: 'MUSIC',
    tempo: [120, 160],
    majorChance: 0.65,
    sevenths: false,
    swing: [0, 0],
    drums: { kick: ['x.......x.x.....', 'x.....x.x.......'], snare: BACKBEAT, hat: EIGHTH_HATS, flavor: 'chip' },
    bass: 'triangle',
    bassRhythms: ['R.R.O.R.R.R.O.R.', 'R...R.O.R...F.O.'],
    chords: 'arp',
    chordRhythms: WHOLE_BAR,
    lead: 'square',
    leadChance: 0.9,
    reverbWet: 0.1,
    tags: ['chiptune', '8-bit', 'retro', 'game', 'video-game', 'arcade'],
  },
  {
    label: 'House',
    category: 'MUSIC',
    tempo: [118, 126],
    majorChance: 0.5,
    sevenths: true,
    swing: [0, 0.08],
    drums: { kick: ['x...x...x...x...'], snare: BACKBEAT, hat: ['..x...x...x...x.'], flavor: 'punchy' },
    bass: 'saw',
    bassRhythms: ['..R...R...R...R.', '..R..RR...R..RO.'],
    chords: 'stab',
    chordRhythms: ['x..x..x...x..x..', '..x...x...x...x.'],
    lead: 'pluck',
    leadChance: 0.3,
    reverbWet: 0.3,
    tags: ['house', 'dance', 'electronic', 'club', 'four-on-the-floor', 'groove'],
  },
  {
    label: 'Pop',
    category: 'MUSIC',
    tempo: [96, 124],
    majorChance: 0.75,
    sevenths: false,
    swing: [0, 0],
    drums: { kick: ['x.....x.x.......', 'x.......x.x.....'], snare: BACKBEAT, hat: EIGHTH_HATS, flavor: 'punchy' },
    bass: 'saw',
    bassRhythms: ['R..R..R.R..R..R.', 'R.......R...R...'],
    chords: 'pluck',
    chordRhythms: ['x..x..x.x..x..x.', 'x...x...x...x...'],
    lead: 'triangle',
    leadChance: 0.7,
    reverbWet: 0.3,
    tags: ['pop', 'catchy'],
  },
  {
    label: 'Hip-Hop',
    category: 'MUSIC',
    tempo: [84, 96],
    majorChance: 0.3,
    sevenths: true,
    swing: [0.1, 0.25],
    drums: { kick: ['x.....x...x.....', 'x......xx.......'], snare: BACKBEAT, hat: EIGHTH_HATS, flavor: 'punchy' },
    bass: 'sub',
    bassRhythms: ['R.....R...R.....', 'R......R..R.....'],
    chords: 'ep',
    chordRhythms: ['x.......x.......', 'x.........x.....'],
    lead: 'bell',
    leadChance: 0.5,
    reverbWet: 0.3,
    tags: ['hip-hop', 'beat', 'boom-bap', 'groove', 'urban'],
  },
  {
    label: 'Ambient',
    category: 'MUSIC',
    tempo: [60, 80],
    majorChance: 0.55,
    sevenths: true,
    swing: [0, 0],
    drums: null,
    bass: 'sub',
    bassRhythms: WHOLE_BAR,
    chords: 'pad',
    chordRhythms: WHOLE_BAR,
    lead: 'bell',
    leadChance: 0.8,
    reverbWet: 0.6,
    tags: ['ambient', 'atmospheric', 'pad', 'meditation', 'slow'],
  },
  {
    label: 'Lofi Hip Hop',
    category: 'LOFI',
    tempo: [70, 90],
    majorChance: 0.5,
    sevenths: true,
    swing: [0.15, 0.3],
    drums: { kick: ['x.........x.....', 'x......x..x.....'], snare: BACKBEAT, hat: EIGHTH_HATS, flavor: 'soft' },
    bass: 'sub',
    bassRhythms: ['R.....R...R.....', 'R.........R..F..'],
    chords: 'ep',
    chordRhythms: ['x.........x.....', 'x.......x.......'],
    lead: 'pluck',
    leadChance: 0.5,
    reverbWet: 0.3,
    tags: ['hip-hop', 'beats', 'study', 'relaxing'],
  },
  {
    label: 'Lofi Jazz',
    category: 'LOFI',
    tempo: [65, 85],
    majorChance: 0.6,
    sevenths: true,
    swing: [0.25, 0.33],
    drums: {
      kick: ['x.......x.......'],
      snare: ['....x.......x...'],
      hat: ['x..x..x.x..x..x.', 'x.x.x.x.x.x.x.x.'],
      flavor: 'soft',
    },
    bass: 'upright',
    bassRhythms: ['R...F...O...F...', 'R.......F...R...'],
    chords: 'ep',
    chordRhythms: ['x.....x.........', 'x.........x.....'],
    lead: 'bell',
    leadChance: 0.6,
    reverbWet: 0.35,
    tags: ['jazz', 'cafe', 'smooth', 'mellow'],
  },
  {
    label: 'Chillhop',
    category: 'LOFI',
    tempo: [80, 95],
    majorChance: 0.6,
    sevenths: true,
    swing: [0.1, 0.22],
    drums: { kick: ['x.....x...x.....', 'x.......x.x.....'], snare: BACKBEAT, hat: EIGHTH_HATS, flavor: 'soft' },
    bass: 'sub',
    bassRhythms: ['R.....R.R.......', 'R...R.....R.....'],
    chords: 'pluck',
    chordRhythms: ['x..x......x.....', 'x.....x.....x...'],
    lead: 'pluck',
    leadChance: 0.6,
    reverbWet: 0.3,
    tags: ['chillhop', 'groove', 'beats', 'relaxing'],
  },
  {
    label: 'Lofi Ambient',
    category: 'LOFI',
    tempo: [60, 75],
    majorChance: 0.5,
    sevenths: true,
    swing: [0, 0],
    drums: { kick: ['x...............'], snare: ['........x.......'], hat: ['x...x...x...x...'], flavor: 'soft' },
    bass: 'sub',
    bassRhythms: WHOLE_BAR,
    chords: 'pad',
    chordRhythms: WHOLE_BAR,
    lead: 'bell',
    leadChance: 0.7,
    reverbWet: 0.5,
    tags: ['ambient', 'sleep', 'dreamy', 'calm'],
  },
];

export function stylesFor(category: 'MUSIC' | 'LOFI'): readonly MusicStyle[] {
  return STYLES.filter((style) => style.category === category);
}
