import type { PictureKind, PictureSpec } from '../audio/pictures/index.ts';

/** The sizes a picture is drawn at, as Freesound's: large (the default) and small, half of it each way. */
export const PICTURE_SIZES = {
  large: { width: 1200, height: 300 },
  small: { width: 600, height: 150 },
} as const;
export type PictureSize = keyof typeof PICTURE_SIZES;

/**
 * What a picture's claim reserves in the renditions' bound while it is made, per pixel: an
 * estimate above what the demo catalog's pictures take (indexed colour, deflated); the record
 * then holds the file's real size.
 */
export const PICTURE_RESERVE_BYTES_PER_PIXEL = 0.5;

/** Changes with the drawing (audio/pictures/draw.ts), so pictures drawn before are never served for new ones. */
const DRAWING_VERSION = 1;

export function pictureSpec(kind: PictureKind, size: PictureSize): PictureSpec {
  return { kind, ...PICTURE_SIZES[size] };
}

/** `pictures/ab/<content hash>-spectrogram-1200x300-d1.png`: one file per content, kind and size. */
export function pictureKey(contentHash: string, spec: PictureSpec): string {
  const name = `${contentHash}-${spec.kind}-${spec.width}x${spec.height}-d${DRAWING_VERSION}`;
  return `pictures/${contentHash.slice(0, 2)}/${name}.png`;
}
