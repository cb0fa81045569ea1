import { mixInto, mixPanned, samplesFor } from '../dsp/mix.ts';
import type { Random } from '../random.ts';
import { buildDrumKit, DRUM_LEVELS } from './drums.ts';
import { renderNote, type Voice } from './instruments.ts';
import { patternHits, type SongPlan, stepSeconds, stepTime } from './song-plan.ts';
import { midiToHz, scaleSemitone } from './theory.ts';

/** Where the parts of a loop are written: a stereo dry mix and a mono send to the reverb. */
export interface Buses {
  left: Float32Array;
  right: Float32Array;
  send: Float32Array;
}

interface Placement {
  seconds: number;
  gain: number;
  pan: number;
  send: number;
}

export function place(buses: Buses, sampleRate: number, sound: Float32Array, at: Placement): void {
  const offset = Math.round(at.seconds * sampleRate);
  mixPanned(buses.left, buses.right, sound, offset, at.gain, at.pan);
  if (at.send > 0) mixInto(buses.send, sound, offset, at.gain * at.send);
}

export function arrangeDrums(plan: SongPlan, rng: Random, buses: Buses, bars: number): void {
  const drums = plan.style.drums;
  if (!drums) return;
  const kit = buildDrumKit(rng, plan.sampleRate, drums.flavor);
  const lofi = plan.style.category === 'LOFI';
  for (let bar = 0; bar < bars; bar++) {
    const parts = [
      [plan.kick, kit.kick, DRUM_LEVELS.kick, 0, 0],
      [plan.snare, kit.snare, DRUM_LEVELS.snare, 0.05, 0.25],
      [plan.hat, kit.hat, DRUM_LEVELS.hat * (lofi ? 0.7 : 1), 0.3, 0],
    ] as const;
    for (const [pattern, sound, level, pan, send] of parts) {
      for (const hit of patternHits(pattern)) {
        // Lo-fi drums are played loosely: small timing and loudness differences per hit.
        const looseness = lofi ? rng.range(-0.008, 0.008) : 0;
        const accent = hit.step % 4 === 0 ? 1 : rng.range(0.7, 0.9);
        place(buses, plan.sampleRate, sound, {
          seconds: Math.max(0, stepTime(plan, bar, hit.step) + looseness),
          gain: level * accent,
          pan,
          send,
        });
      }
    }
  }
}

/** Puts chord tones near the middle of the keyboard so changes move the voices little. */
function voice(plan: SongPlan, chord: readonly number[], lowest: number): number[] {
  return chord.map((tone) => {
    let midi = plan.tonic + tone;
    while (midi < lowest) midi += 12;
    while (midi >= lowest + 12) midi -= 12;
    return midi;
  });
}

export function arrangeChords(plan: SongPlan, rng: Random, buses: Buses, bars: number): void {
  const kind = plan.style.chords;
  const step = stepSeconds(plan);
  // Chords repeat with the progression: each (chord, length) is rendered and panned once, then placed.
  const cache = new Map<string, StereoSound>();
  for (let bar = 0; bar < bars; bar++) {
    const chordIndex = bar % plan.progression.length;
    const notes = voice(plan, plan.progression[chordIndex]!, kind === 'arp' ? 64 : 55);
    if (kind === 'arp') {
      for (let s = 0; s < 16; s++) {
        const midi = notes[s % notes.length]! + (Math.floor(s / notes.length) % 2) * 12;
        const note = renderNote('arp', midiToHz(midi), step * 0.8, plan.sampleRate, rng);
        place(buses, plan.sampleRate, note, {
          seconds: stepTime(plan, bar, s),
          gain: 0.3,
          pan: s % 2 === 0 ? -0.45 : 0.45,
          send: 0.2,
        });
      }
      continue;
    }
    for (const hit of patternHits(plan.chordRhythm)) {
      const key = `${chordIndex}:${hit.steps}`;
      let chord = cache.get(key);
      if (!chord) {
        const held = hit.steps * step * (kind === 'stab' ? 0.5 : 0.95);
        const rendered = notes.map((midi) => renderNote(kind, midiToHz(midi), held, plan.sampleRate, rng));
        chord = { left: new Float32Array(rendered[0]!.length), right: new Float32Array(rendered[0]!.length) };
        rendered.forEach((note, index) => {
          const pan = (index / Math.max(1, notes.length - 1) - 0.5) * 1.1;
          mixPanned(chord!.left, chord!.right, note, 0, 1.3 / notes.length, pan);
        });
        cache.set(key, chord);
      }
      placeStereo(buses, plan.sampleRate, chord, stepTime(plan, bar, hit.step), 0.35);
    }
  }
}

interface StereoSound {
  left: Float32Array;
  right: Float32Array;
}

function placeStereo(buses: Buses, sampleRate: number, sound: StereoSound, seconds: number, send: number): void {
  const offset = Math.round(seconds * sampleRate);
  mixInto(buses.left, sound.left, offset);
  mixInto(buses.right, sound.right, offset);
  mixInto(buses.send, sound.left, offset, send * 0.7);
  mixInto(buses.send, sound.right, offset, send * 0.7);
}

export function arrangeBass(plan: SongPlan, rng: Random, buses: Buses, bars: number): void {
  const step = stepSeconds(plan);
  for (let bar = 0; bar < bars; bar++) {
    const chord = plan.progression[bar % plan.progression.length]!;
    const root = voice(plan, chord, 36)[0]!;
    for (const hit of patternHits(plan.bassRhythm)) {
      const midi = hit.symbol === 'F' ? root + 7 : hit.symbol === 'O' ? root + 12 : root;
      const note = renderNote(plan.style.bass, midiToHz(midi), hit.steps * step * 0.9, plan.sampleRate, rng);
      place(buses, plan.sampleRate, note, { seconds: stepTime(plan, bar, hit.step), gain: 0.55, pan: 0, send: 0 });
    }
  }
}

export const LEAD_RHYTHMS = [
  'x.x.x...x.x.x...',
  'x...x.x.x...x...',
  'x..x..x...x.x...',
  'x.......x.x.x.x.',
  '..x.x.x...x.x...',
  'x.....x.....x...',
];

/** A two-bar motif of scale steps, replayed each two bars with strong beats moved onto chord tones. */
export function arrangeLead(plan: SongPlan, rng: Random, buses: Buses, bars: number): void {
  const voiceKind: Voice | null = plan.style.lead;
  if (!plan.lead || voiceKind === null) return;
  const step = stepSeconds(plan);
  const rhythms = [rng.pick(LEAD_RHYTHMS), rng.pick(LEAD_RHYTHMS)];
  const motif: number[] = [];
  let degree = rng.int(0, 4);
  for (let i = 0; i < 16; i++) {
    motif.push(degree);
    degree = Math.max(-2, Math.min(7, degree + rng.pick([-2, -1, -1, 1, 1, 2, 0])));
  }
  const lowest = 60;
  for (let bar = 0; bar < bars; bar++) {
    const chord = plan.progression[bar % plan.progression.length]!;
    const chordPitchClasses = chord.map((tone) => (plan.tonic + tone) % 12);
    patternHits(rhythms[bar % 2]!).forEach((hit, index) => {
      let midi =
        lowest -
        ((lowest - plan.tonic) % 12) +
        12 +
        scaleSemitone(plan.mode, motif[(index + (bar % 2) * 8) % motif.length]!);
      if (hit.step % 4 === 0) midi = nearestChordTone(midi, chordPitchClasses);
      const note = renderNote(voiceKind, midiToHz(midi), Math.min(hit.steps, 4) * step * 0.85, plan.sampleRate, rng);
      place(buses, plan.sampleRate, note, { seconds: stepTime(plan, bar, hit.step), gain: 0.45, pan: 0.15, send: 0.4 });
    });
  }
}

function nearestChordTone(midi: number, pitchClasses: readonly number[]): number {
  for (let distance = 0; distance < 6; distance++) {
    if (pitchClasses.includes((((midi - distance) % 12) + 12) % 12)) return midi - distance;
    if (pitchClasses.includes((((midi + distance) % 12) + 12) % 12)) return midi + distance;
  }
  return midi;
}

export function emptyBuses(seconds: number, sampleRate: number): Buses {
  const length = samplesFor(seconds, sampleRate);
  return { left: new Float32Array(length), right: new Float32Array(length), send: new Float32Array(length) };
}
