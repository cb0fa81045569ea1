import type { Sound } from '../../catalog/sound.ts';
import type { Services } from '../../services.ts';
import type { PaginationBody, PopularSoundBody, SoundBody, SoundSummaryBody } from '../schemas.ts';

/** Domain sounds to API bodies. URLs are signed here, at the moment of answering. */

export function toSoundSummary(sound: Sound, services: Services, withDownload: boolean): SoundSummaryBody {
  return {
    id: sound.id,
    name: sound.name,
    description: sound.description,
    tags: sound.tags,
    duration: sound.duration,
    stream_url: services.signer.sign(sound.id, 'stream').url,
    ...(withDownload && { download_url: services.signer.sign(sound.id, 'download').url }),
  };
}

export function toSound(sound: Sound, services: Services): SoundBody {
  return {
    ...toSoundSummary(sound, services, true),
    category: sound.category,
    license: sound.license,
    timing: sound.timing,
    loudness: sound.loudness,
  };
}

export function toPopularSound(sound: Sound, services: Services): PopularSoundBody {
  return { ...toSound(sound, services), numDownloads: sound.numDownloads };
}

export function toPagination(page: number, limit: number, total: number): PaginationBody {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}
