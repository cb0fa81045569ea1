import { capitalize, cleanTags, countWord, joinWords, withArticle } from '../naming.ts';
import type { Random } from '../random.ts';
import type { SoundDraft } from '../sound.ts';
import { loopSeconds, type SongPlan } from './song-plan.ts';
import type { BassVoice, ChordVoice, DrumFlavor, LeadVoice } from './styles.ts';
import { chordSymbol, keyLabel, keyTag } from './theory.ts';

/** Words for what each part sounds like, shared by descriptions and tags. */
const CHORD_WORDS: Readonly<Record<ChordVoice, { text: string; name: string; tags: string[] }>> = {
  pad: { text: 'a warm synth pad', name: 'Warm Pad', tags: ['pad', 'synth'] },
  ep: { text: 'electric piano chords', name: 'Electric Piano', tags: ['electric-piano', 'piano', 'keys', 'rhodes'] },
  stab: { text: 'short synth chord stabs', name: 'Synth Stabs', tags: ['synth', 'stabs'] },
  pluck: { text: 'plucked string chords', name: 'Plucked Chords', tags: ['pluck', 'guitar', 'strings'] },
  arp: { text: 'a fast 8-bit arpeggio', name: '8-Bit Arpeggio', tags: ['arpeggio', 'square-wave'] },
};
const BASS_WORDS: Readonly<Record<BassVoice, string>> = {
  sub: 'a round sub bass',
  saw: 'a driving synth bass',
  triangle: 'a triangle-wave bass',
  upright: 'a plucked upright bass',
};
const BASS_NAMES: Readonly<Record<BassVoice, string>> = {
  sub: 'Sub Bass',
  saw: 'Synth Bass',
  triangle: 'Triangle Bass',
  upright: 'Upright Bass',
};
const LEAD_WORDS: Readonly<Record<LeadVoice, { text: string; name: string; tag: string }>> = {
  square: { text: 'a square-wave melody', name: 'Square-Wave Melody', tag: 'melody' },
  saw: { text: 'a soaring saw lead', name: 'Soaring Saw Lead', tag: 'lead' },
  bell: { text: 'a soft bell melody', name: 'Bell Melody', tag: 'bells' },
  pluck: { text: 'a plucked melody', name: 'Plucked Melody', tag: 'melody' },
  triangle: { text: 'a gentle synth melody', name: 'Gentle Synth Melody', tag: 'melody' },
};

const DRUM_WORDS: Readonly<Record<DrumFlavor, string>> = { punchy: 'punchy', soft: 'soft', chip: '8-bit noise' };

function moodsFor(plan: SongPlan): readonly string[] {
  const major = plan.mode === 'major';
  if (plan.style.category === 'LOFI')
    return major ? ['Dreamy', 'Warm', 'Mellow', 'Cozy'] : ['Melancholic', 'Rainy Day', 'Late Night', 'Nostalgic'];
  if (plan.bpm >= 115) return major ? ['Upbeat', 'Happy', 'Energetic'] : ['Driving', 'Dark', 'Intense'];
  return major ? ['Bright', 'Hopeful', 'Warm'] : ['Moody', 'Melancholic', 'Mysterious'];
}

export function describeSong(plan: SongPlan, rng: Random, audio: SoundDraft['audio']): SoundDraft {
  const mood = rng.pick(moodsFor(plan));
  const key = keyLabel(plan.tonic, plan.mode);
  const lofi = plan.style.category === 'LOFI';
  const chords = plan.progression.map((chord) => chordSymbol(plan.tonic, plan.mode, chord)).join('–');
  const parts = [CHORD_WORDS[plan.style.chords].text, BASS_WORDS[plan.style.bass]];
  if (plan.style.drums)
    parts.push(joinWords(DRUM_WORDS[plan.style.drums.flavor], plan.swing > 0.05 && 'swung', 'drums'));
  if (plan.lead && plan.style.lead) parts.push(LEAD_WORDS[plan.style.lead].text);
  if (lofi) parts.push('vinyl crackle and tape wobble');
  const partsText =
    parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]!}` : parts.join('');
  const styleText =
    lofi && !plan.style.label.toLowerCase().includes('lofi') && plan.style.label !== 'Chillhop'
      ? `lofi ${plan.style.label.toLowerCase()}`
      : plan.style.label.toLowerCase();
  const tempoWord = plan.bpm < 85 ? 'slow' : plan.bpm >= 125 ? 'fast' : 'mid-tempo';
  const seconds = Math.round(loopSeconds(plan));
  return {
    title: joinWords(mood, plan.style.label, 'Loop'),
    details: [
      plan.lead && plan.style.lead
        ? LEAD_WORDS[plan.style.lead].name
        : `${CHORD_WORDS[plan.style.chords].name} and ${BASS_NAMES[plan.style.bass]}`,
      chords,
      `${capitalize(countWord(plan.bars))} Bars`,
    ],
    refinements: [plan.swing > 0 ? `${Math.round(plan.swing * 100)}% Swing` : 'Straight Time'],
    subtitle: `${plan.bpm} BPM in ${key}`,
    description: capitalize(
      `${withArticle(`${mood.toLowerCase()} ${plan.bars}-bar ${styleText} loop`)} at ${plan.bpm} BPM in ${key} ` +
        `(${seconds} s), playing ${chords} with ${partsText}.`,
    ),
    tags: cleanTags([
      lofi ? 'lofi' : 'music',
      lofi && 'lo-fi',
      lofi && 'chill',
      lofi && 'vinyl',
      lofi && 'crackle',
      ...plan.style.tags,
      'loop',
      'instrumental',
      `${plan.bpm}bpm`,
      keyTag(plan.tonic, plan.mode),
      plan.mode,
      mood.toLowerCase(),
      tempoWord,
      `${plan.bars}-bars`,
      plan.style.sevenths && 'jazzy',
      plan.style.sevenths && '7th-chords',
      plan.style.drums !== null && 'drums',
      plan.style.drums !== null && 'beat',
      'bass',
      ...CHORD_WORDS[plan.style.chords].tags,
      plan.lead && plan.style.lead ? LEAD_WORDS[plan.style.lead].tag : undefined,
    ]),
    audio,
  };
}
