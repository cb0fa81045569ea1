import type { Facets, Loudness, Sound, Timing } from '../catalog/sound.ts';
import type { MediaSigner } from '../media/signing.ts';
import type {
  CursorPaginationBody, FacetsBody, LoudnessBody, PaginationBody, PopularSoundBody, SimilarSoundBody, SoundBody, SoundSummaryBody, TimingBody,
} from './schemas.ts';

/**
 * Domain sounds to API bodies. URLs are signed here, at the moment of answering.
 * Each body is one object literal with all its fields, and a body with one more field is that
 * literal with the field assigned to it, never a spread: a page maps 20 to 100 of these per
 * request, literals of one shape are what V8 builds and writes fastest, and a spread of a body
 * into a new literal cost 0.5-0.7 us each on Node.js 20 (against 0.03 us to assign a field).
 * Answers are written with JSON.stringify (api/serializer.ts), so a body must hold its
 * schema's fields and nothing else: a literal typed by the schema cannot have more, and a domain
 * object handed over whole must have exactly the fields of its body, checked below. The whole
 * answer of a REST handler or an MCP tool is checked again for fields beyond its schema, at every
 * depth (exact-body.ts).
 */

/** true when A and B have the same fields, of the same types. */
type SameFields<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
/** Fails to compile when a domain object passed into a body whole gains or loses a field. */
export type PassedWhole = [
  Expect<SameFields<Timing, TimingBody>>,
  Expect<SameFields<Loudness, LoudnessBody>>,
  Expect<SameFields<Facets, FacetsBody>>,
];
type Expect<T extends true> = T;

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
export function toCursorPagination(page: number, limit: number, total: number, nextCursor: string | null): CursorPaginationBody {
  return { page, limit, total, totalPages: Math.ceil(total / limit), next_cursor: nextCursor };
}
