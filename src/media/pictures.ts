import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { PictureKind } from '../audio/pictures/index.ts';
import type { StoredSound } from '../catalog/sound.ts';
import { pictureSpec, type PictureSize } from './picture-key.ts';
import type { RenditionService } from './renditions.ts';
import { MediaMissingError, type MediaStore } from './store.ts';

export { PICTURE_SIZES, type PictureSize } from './picture-key.ts';
export type { PictureKind } from '../audio/pictures/index.ts';

/** A picture as it is served: its PNG bytes and their strong ETag. */
export interface Picture {
  png: Buffer;
  /** `"<SHA-256 of the bytes, base64url>"`: the same bytes have the same tag on every instance. */
  etag: string;
}

/**
 * A sound's pictures (waveform and spectrogram PNGs) for every front door: made once by the
 * renditions service (on its threads, in its record and under its bound) and read whole from the
 * media store; a picture is tens of kilobytes.
 */
export class PictureService {
  constructor(
    private readonly files: MediaStore,
    private readonly renditions: RenditionService,
  ) {}

  async get(sound: StoredSound, kind: PictureKind, size: PictureSize, signal?: AbortSignal): Promise<Picture> {
    const spec = pictureSpec(kind, size);
    // Twice at most: a picture removed (to stay under the bound) between finding it and reading it is made again.
    for (let attempt = 1; ; attempt++) {
      const fileKey = await this.renditions.picture(sound, spec, signal ? { signal } : {});
      try {
        const png = await readAll(await this.files.read(fileKey));
        return { png, etag: `"${createHash('sha256').update(png).digest('base64url')}"` };
      } catch (error) {
        if (!(error instanceof MediaMissingError) || attempt === 2) throw error;
      }
    }
  }
}

/**
 * Whether an If-None-Match header names this ETag (RFC 9110, 13.1.2: a list, `*`, weak
 * comparison): the client's copy is current and the answer is 304.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
