import type { Sound } from '../catalog/sound.ts';
import type { MediaSigner } from '../media/signing.ts';
import type {
  CursorPaginationBody,
  PaginationBody,
  PopularSoundBody,
  SimilarSoundBody,
  SoundBody,
  SoundSummaryBody,
} from './schemas.ts';

/**
 * Domain sounds to API bodies. URLs are signed here, at the moment of answering. Each body is one
 * object literal with all its fields: a page maps up to 100 of these per request, and literals of
 * one shape are what V8 builds fastest. Only the fields a schema lists are written to a client
 * (api/serializer.ts for REST, the output schema for MCP), so a domain object may be passed whole.
 */

export function toSoundSummary(sound: Sound, signer: MediaSigner): SoundSummaryBody {
  return {
    id: sound.id,
    name: sound.name,
    description: sound.description,
    tags: sound.tags,
    duration: sound.duration,
    stream_url: signer.sign(sound.id, 'stream').url,
  };
}

export function toSound(sound: Sound, signer: MediaSigner): SoundBody {
  const signed = signer.signBoth(sound.id);
  return {
    id: sound.id,
    name: sound.name,
    description: sound.description,
    tags: sound.tags,
    duration: sound.duration,
    stream_url: signed.stream.url,
    download_url: signed.download.url,
    category: sound.category,
    license: sound.license,
    timing: sound.timing,
    loudness: sound.loudness,
    loop: sound.loop === null ? null : { start_sample: sound.loop.startSample, end_sample: sound.loop.endSample },
  };
}

/** A sound with its download count (popular): the sound's body, then the count. */
export function toPopularSound(sound: Sound, signer: MediaSigner): PopularSoundBody {
  return Object.assign(toSound(sound, signer), { numDownloads: sound.numDownloads });
}

/** A sound with how alike it is to the one asked about (similar sounds). */
export function toSimilarSound(sound: Sound, similarity: number, signer: MediaSigner): SimilarSoundBody {
  return Object.assign(toSound(sound, signer), { similarity });
}

export function toPagination(page: number, limit: number, total: number): PaginationBody {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

/** The pagination of a page of a cursor walk: next_cursor is null when the walk ends with it. */
export function toCursorPagination(
  page: number,
  limit: number,
  total: number,
  nextCursor: string | null,
): CursorPaginationBody {
  return { page, limit, total, totalPages: Math.ceil(total / limit), next_cursor: nextCursor };
}
