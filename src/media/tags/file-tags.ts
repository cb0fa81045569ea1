import type { PlayedPart } from '../../audio/played-audio.ts';
import type { Timing } from '../../catalog/sound.ts';

/** A loop of the sound in its source's sample frames: from `startSample` up to (not including) `endSample`. */
export interface SoundLoop {
  startSample: number;
  endSample: number;
}

/** What of a sound its file's tags say. */
export interface TagSound {
  id: string;
  name: string;
  description: string | null;
  category: string | null;
  tags: string[];
  license: string | null;
  createdAt: string;
  timing: Timing;
}

/** The metadata every delivered file carries, and where in the source the delivered audio lies. */
export interface FileTags {
  id: string;
  name: string;
  description: string | null;
  category: string | null;
  tags: string[];
  license: string;
  /** The sound's URL in the API. */
  url: string;
  /** When the sound entered the catalog (ISO 8601). */
  createdAt: string;
  /** The UCS CatID, when known. */
  catId: string | null;
  /** The loop, in source frames; null unless the sound is a loop. */
  loop: SoundLoop | null;
  /** The source's sample rate: what the loop's frames count in (a loop without it is not written). */
  sourceRate: number | null;
  timing: Timing;
  /** The part of the source the file plays (a trimmed or cut rendition). */
  played: PlayedPart;
}

export interface FileTagOptions {
  /** The service's public base URL, without a trailing slash. */
  baseUrl: string;
  loop?: SoundLoop | null;
  sourceRate?: number | null;
  catId?: string | null;
  played?: PlayedPart;
}

/** The tags of a sound's delivered file. */
export function fileTagsOf(sound: TagSound, options: FileTagOptions): FileTags {
  const loop = options.loop ?? null;
  const validLoop =
    loop !== null &&
    Number.isSafeInteger(loop.startSample) &&
    Number.isSafeInteger(loop.endSample) &&
    loop.startSample >= 0 &&
    loop.endSample > loop.startSample;
  return {
    id: sound.id,
    name: sound.name,
    description: sound.description,
    category: sound.category,
    tags: sound.tags,
    license: sound.license ?? 'CC0',
    url: `${options.baseUrl}/api/v1/sounds/${encodeURIComponent(sound.id)}`,
    createdAt: sound.createdAt,
    catId: options.catId ?? null,
    loop: validLoop ? loop : null,
    sourceRate: options.sourceRate ?? null,
    timing: sound.timing,
    played: options.played ?? {},
  };
}

/** A labelled point of the delivered file. */
export interface Marker {
  label: 'onset' | 'peak' | 'tail';
  frame: number;
}

/** The loop and markers in the delivered file's own frames. */
export interface DeliveredPoints {
  /** `end` is exclusive. */
  loop: { start: number; end: number } | null;
  markers: Marker[];
}

/**
 * The loop and the onset, peak and tail markers moved into a delivered file at `rate` holding
 * `totalFrames` (null when its head does not say): shifted by a trim's start (counted in source
 * frames as played-audio.ts cuts it), scaled to the file's rate, and dropped where they fall
 * outside the file (past a trim's end or a cut). A loop comes through whole or not at all.
 */
export function deliveredPoints(tags: FileTags, rate: number, totalFrames: number | null): DeliveredPoints {
  const source = tags.sourceRate;
  const { trim, maxMs } = tags.played;
  // The test played-audio.ts makes: a stretch empty at the source's rate keeps the whole sound.
  const cutRate = source ?? rate;
  const trimmed =
    trim !== undefined && Math.round((trim.endMs * cutRate) / 1000) > Math.round((trim.startMs * cutRate) / 1000);
  // Seconds into the source where the file starts, and how many seconds it plays.
  let startSeconds = 0;
  let playedSeconds = Infinity;
  if (trimmed) {
    startSeconds = source ? Math.round((trim.startMs * source) / 1000) / source : trim.startMs / 1000;
    playedSeconds = source
      ? (Math.round((trim.endMs * source) / 1000) - Math.round((trim.startMs * source) / 1000)) / source
      : (trim.endMs - trim.startMs) / 1000;
  }
  if (maxMs !== undefined) playedSeconds = Math.min(playedSeconds, maxMs / 1000);
  let limit = playedSeconds === Infinity ? Infinity : Math.round(playedSeconds * rate);
  if (totalFrames !== null) limit = Math.min(limit, totalFrames);
  const at = (seconds: number) => Math.round((seconds - startSeconds) * rate);

  const markers: Marker[] = [];
  for (const label of ['onset', 'peak', 'tail'] as const) {
    const ms = tags.timing[`${label}_ms`];
    if (ms === null || !Number.isFinite(ms)) continue;
    const frame = at(ms / 1000);
    if (frame >= 0 && frame <= limit) markers.push({ label, frame });
  }
  let loop: DeliveredPoints['loop'] = null;
  if (tags.loop && source) {
    // Exact in frames when the rate is the source's: a loop must not move by a rounding.
    const start = at(tags.loop.startSample / source);
    const end = at(tags.loop.endSample / source);
    if (start >= 0 && end > start && end <= limit) loop = { start, end };
  }
  return { loop, markers };
}

/** The fields of a Vorbis comment (FLAC, Ogg Vorbis, Opus), with LOOPSTART/LOOPLENGTH for a loop. */
export function commentFields(tags: FileTags, points: DeliveredPoints): [string, string][] {
  const fields: [string, string][] = [['TITLE', tags.name]];
  if (tags.description) fields.push(['DESCRIPTION', tags.description]);
  if (tags.category) fields.push(['GENRE', tags.category]);
  if (tags.tags.length > 0) fields.push(['KEYWORDS', tags.tags.join(', ')]);
  fields.push(
    ['LICENSE', tags.license],
    ['COPYRIGHT', copyrightOf(tags)],
    ['CATALOGNUMBER', tags.id],
    ['URL', tags.url],
    ['DATE', tags.createdAt.slice(0, 10)],
  );
  if (tags.catId) fields.push(['CATID', tags.catId]);
  if (points.loop) {
    fields.push(['LOOPSTART', String(points.loop.start)], ['LOOPLENGTH', String(points.loop.end - points.loop.start)]);
  }
  return fields;
}

/** The one copyright line: the licence as a statement. */
export function copyrightOf(tags: FileTags): string {
  return tags.license.toUpperCase() === 'CC0'
    ? 'CC0 1.0 Universal: no rights reserved (https://creativecommons.org/publicdomain/zero/1.0/)'
    : tags.license;
}
