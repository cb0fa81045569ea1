import type { Random } from '../random.ts';
import { CATEGORY_DURATION } from '../plan.ts';
import { diatonicChord, type Mode, PROGRESSIONS } from './theory.ts';
import { stylesFor, type MusicStyle } from './styles.ts';

/** Every musical decision for one loop, made up front so rendering and naming agree. */
export interface SongPlan {
  style: MusicStyle;
  bpm: number;
  /** Pitch class of the key's tonic, 0 = C. */
  tonic: number;
  mode: Mode;
  /** One chord per bar of the progression, as semitones above the tonic. */
  progression: number[][];
  bars: number;
  swing: number;
  kick: string;
  snare: string;
  hat: string;
  bassRhythm: string;
  chordRhythm: string;
  lead: boolean;
  sampleRate: number;
}

export function planSong(rng: Random, category: 'MUSIC' | 'LOFI', sampleRate: number): SongPlan {
  const style = rng.pick(stylesFor(category));
  const bpm = rng.int(style.tempo[0], style.tempo[1]);
  const mode: Mode = rng.chance(style.majorChance) ? 'major' : 'minor';
  const degrees = rng.pick(PROGRESSIONS[mode][style.sevenths ? 'sevenths' : 'triads']);
  // Mostly short loops: long ones are a minority, as every second costs time downstream.
  let bars = rng.weighted([
    [2, 7],
    [4, 3],
    [8, 0.5],
    [16, 0.2],
  ] as const);
  const { min, max } = CATEGORY_DURATION[category];
  while (bars > 2 && barSecondsAt(bpm) * bars > max) bars /= 2;
  // A two-bar loop at a fast tempo can fall under the category's minimum: double it.
  while (barSecondsAt(bpm) * bars < min) bars *= 2;
  return {
    style,
    bpm,
    tonic: rng.int(0, 11),
    mode,
    progression: degrees.map((degree) => diatonicChord(mode, degree, style.sevenths ? 4 : 3)),
    bars,
    swing: rng.range(style.swing[0], style.swing[1]),
    kick: rng.pick(style.drums?.kick ?? ['']),
    snare: rng.pick(style.drums?.snare ?? ['']),
    hat: rng.pick(style.drums?.hat ?? ['']),
    bassRhythm: rng.pick(style.bassRhythms),
    chordRhythm: rng.pick(style.chordRhythms),
    lead: style.lead !== null && rng.chance(style.leadChance),
    sampleRate,
  };
}

function barSecondsAt(bpm: number): number {
  return (4 * 60) / bpm;
}

export function stepSeconds(plan: SongPlan): number {
  return 60 / plan.bpm / 4;
}

export function loopSeconds(plan: SongPlan): number {
  return barSecondsAt(plan.bpm) * plan.bars;
}

/** When a sixteenth step of a bar sounds: every other sixteenth is delayed by the swing. */
export function stepTime(plan: SongPlan, bar: number, step: number): number {
  const sixteenth = stepSeconds(plan);
  return (bar * 16 + step) * sixteenth + (step % 2 === 1 ? plan.swing * sixteenth : 0);
}

/** The steps of a pattern that play, each with how many steps it lasts (until the next, or the bar end). */
export function patternHits(pattern: string): { step: number; steps: number; symbol: string }[] {
  const hits: { step: number; steps: number; symbol: string }[] = [];
  for (let step = 0; step < pattern.length; step++) {
    const symbol = pattern.charAt(step);
    if (symbol === '.') continue;
    let end = step + 1;
    while (end < pattern.length && pattern.charAt(end) === '.') end++;
    hits.push({ step, steps: end - step, symbol });
  }
  return hits;
}
