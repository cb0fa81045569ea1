import { z } from 'zod';

/**
 * The shapes of sounds in tool answers. An agent pays for every byte it reads, so lists answer
 * concisely unless asked for `detail: "full"` (then as GET /api/v1/sounds/{id} gives them).
 */

/** The longest description a concise sound carries. */
export const SHORT_DESCRIPTION_CHARS = 80;

export const detailArgument = z
  .enum(['concise', 'full'])
  .default('concise')
  .describe('concise (default): id, name, duration, category, short description; full: as get_sound.');

/** `detail` in the tools after search_sounds, which describes it. */
export const detailAsInSearch = detailArgument.describe('As in search_sounds.');

interface DescribedSound {
  id: string;
  name: string;
  duration: number;
  description: string | null;
  category?: string | null;
}

/** A type, not an interface: it must fit the loose published item. */
export type ConciseSound = {
  id: string;
  name: string;
  duration: number;
  category?: string | null;
  description: string | null;
};

/** The few fields an agent chooses by; the description cut at a word, marked with an ellipsis. */
export function toConciseSound(sound: DescribedSound): ConciseSound {
  return {
    id: sound.id,
    name: sound.name,
    duration: Number(sound.duration.toFixed(2)),
    ...(sound.category !== undefined && { category: sound.category }),
    description: sound.description === null ? null : shortText(sound.description, SHORT_DESCRIPTION_CHARS),
  };
}

export function shortText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > limit / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}
