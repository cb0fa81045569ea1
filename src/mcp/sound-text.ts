import type {
  PaginationBody,
  PopularSoundBody,
  SimilarSoundBody,
  SoundBody,
  SoundSummaryBody,
} from '../shapes/schemas.ts';
import type { ConciseSound } from './sound-shapes.ts';

/**
 * Compact text for models that read `content` rather than `structuredContent`: one line per
 * sound with what an agent chooses by (name, id, duration, category, tags, level, onset).
 */

type AnySound = SoundSummaryBody | SoundBody | PopularSoundBody | SimilarSoundBody | ConciseSound;

export function soundLine(sound: AnySound): string {
  const parts = [`${sound.name} [id ${sound.id}]`, `${round(sound.duration, 2)} s`];
  if ('category' in sound) parts.push(sound.category ?? 'no category');
  // A concise sound has no tags: its short description stands for them.
  if (!('tags' in sound)) return `- ${[...parts, ...(sound.description ? [sound.description] : [])].join(' · ')}`;
  parts.push(sound.tags.length > 0 ? `tags: ${sound.tags.join(', ')}` : 'no tags');
  if ('loudness' in sound) {
    const lufs = sound.loudness.integrated_lufs;
    parts.push(lufs === null ? 'silent' : `${round(lufs, 1)} LUFS`);
    const onset = sound.timing.onset_ms;
    parts.push(onset === null ? 'no onset' : `onset ${round(onset, 1)} ms`);
  }
  if ('loop' in sound && sound.loop) parts.push('loop');
  if ('numDownloads' in sound) parts.push(`${sound.numDownloads} download${sound.numDownloads === 1 ? '' : 's'}`);
  if ('similarity' in sound) parts.push(`similarity ${round(sound.similarity, 2)}`);
  return `- ${parts.join(' · ')}`;
}

/** A page of sounds: where it sits in the whole result, then one line per sound. */
export function soundListText(sounds: AnySound[], pagination: PaginationBody, noun = 'sound'): string {
  if (sounds.length === 0) {
    return pagination.total === 0
      ? `No ${noun}s match. Try fewer or shorter keywords, fewer tags, or a wider duration range.`
      : `No ${noun}s on page ${pagination.page}; there are ${pagination.totalPages} pages.`;
  }
  const header =
    `${pagination.total} ${noun}${pagination.total === 1 ? '' : 's'} in all; ` +
    `page ${pagination.page} of ${pagination.totalPages}, ${sounds.length} shown (${pagination.limit} per page):`;
  return [header, ...sounds.map(soundLine)].join('\n');
}

/** One sound in full: the line, then the fields that matter for editing and mixing. */
export function soundDetailText(sound: SoundBody): string {
  const { timing, loudness } = sound;
  return [
    soundLine(sound),
    ...(sound.description ? [`  ${sound.description}`] : []),
    `  timing: onset ${ms(timing.onset_ms)}, peak ${ms(timing.peak_ms)}, tail ${ms(timing.tail_ms)}`,
    `  loudness: ${unit(loudness.integrated_lufs, 'LUFS')} integrated, true peak ` +
      `${unit(loudness.true_peak_db, 'dBTP')}`,
    ...(sound.loop
      ? [`  loop: frames ${sound.loop.start_sample} to ${sound.loop.end_sample} of the MP3 (end exclusive)`]
      : []),
    `  license: ${sound.license ?? 'unknown'}`,
    `  stream_url: ${sound.stream_url}`,
  ].join('\n');
}

function ms(value: number | null): string {
  return value === null ? 'none (silent)' : `${round(value, 1)} ms`;
}

function unit(value: number | null, name: string): string {
  return value === null ? 'none (silent)' : `${round(value, 1)} ${name}`;
}

function round(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}
