/** Helpers that turn synthesis parameters into names, descriptions and tags. */

export function titleCase(text: string): string {
  return text
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** "0.3 seconds", "1.2 seconds", "12 seconds": precise enough to check, short enough to read. */
export function formatSeconds(seconds: number): string {
  const value = seconds < 10 ? Number(seconds.toFixed(seconds < 1 ? 2 : 1)) : Math.round(seconds);
  return `${value} ${value === 1 ? 'second' : 'seconds'}`;
}

/** "350 Hz", "2.4 kHz". */
export function formatHz(hz: number): string {
  if (hz < 1000) return `${Math.round(hz / 10) * 10} Hz`;
  return `${Number((hz / 1000).toFixed(1))} kHz`;
}

/** "347 Hz", "2.41 kHz": a pitch precise enough to tell two similar sounds apart by name. */
export function formatHzFine(hz: number): string {
  if (hz < 1000) return `${Math.round(hz)} Hz`;
  return `${Number((hz / 1000).toFixed(2))} kHz`;
}

/** "85 ms": how short interface sounds and gaps are usually measured. */
export function formatMs(seconds: number): string {
  return `${Math.round(seconds * 1000)} ms`;
}

/** "226 ms" under a second, "1.62-Second" from one up: for "226 ms Ring", "1.62-Second Ring". */
export function durationAdjective(seconds: number): string {
  return seconds < 1 ? formatMs(seconds) : `${Number(seconds.toFixed(2))}-Second`;
}

/** "0.31 Seconds", "6.2 Seconds": formatSeconds, cased for a name. */
export function secondsWord(seconds: number): string {
  return titleCase(formatSeconds(seconds));
}

/** Flats, not sharps: "Bb4" reads as a pitch, where "A#4" would read like a take number. */
const NOTE_NAMES = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'Gb', 'G', 'Ab', 'A', 'Bb', 'B'] as const;

/** "E6" for MIDI note 88: the pitch of a tonal effect as a musician names it. */
export function midiNoteName(midi: number): string {
  const rounded = Math.round(midi);
  return `${NOTE_NAMES[((rounded % 12) + 12) % 12]!}${Math.floor(rounded / 12) - 1}`;
}

/** The nearest note to a frequency, "A4" for 440 Hz. */
export function noteNameOfHz(hz: number): string {
  return midiNoteName(69 + 12 * Math.log2(hz / 440));
}

/** Length words for short effects: searches like "short laser" rely on these. */
export function lengthTags(seconds: number): string[] {
  if (seconds < 0.25) return ['short', 'very-short', 'quick'];
  if (seconds < 1) return ['short'];
  if (seconds >= 2.5) return ['long'];
  return [];
}

/** "Quick", "Short", "" or "Long", matching lengthTags. */
export function lengthWord(seconds: number): string {
  if (seconds < 0.25) return 'Quick';
  if (seconds < 1) return 'Short';
  if (seconds >= 2.5) return 'Long';
  return '';
}

/** Lowercase, hyphenated, unique, no empties; accepts `false`/`undefined` for optional tags. */
export function cleanTags(tags: readonly (string | false | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    if (!tag) continue;
    const clean = tag
      .toLowerCase()
      .trim()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
    if (clean.length > 0) seen.add(clean);
  }
  return [...seen];
}

/** Joins words, dropping empty ones: joinWords('Laser', '', 'Zap') is "Laser Zap". */
export function joinWords(...words: readonly (string | false | undefined)[]): string {
  return words.filter((word): word is string => typeof word === 'string' && word.length > 0).join(' ');
}

/** "two", "three", ... for descriptions ("three rapid shots"). */
export function countWord(count: number): string {
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  return words[count] ?? String(count);
}

export function capitalize(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** "12-second": for "a 12-second rain ambience". */
export function secondsAdjective(seconds: number): string {
  return `${Math.round(seconds)}-second`;
}

/** Prefixes "a" or "an" by how the phrase is spoken ("an 8-second", "an airy", "a 12-second"). */
export function withArticle(phrase: string): string {
  const spokenVowel = /^([aeio]|u(?!ni|se|su)|8|11-|11 |18)/i.test(phrase);
  return `${spokenVowel ? 'an' : 'a'} ${phrase}`;
}
