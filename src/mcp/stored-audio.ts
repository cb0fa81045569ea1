import { buffer } from 'node:stream/consumers';
import type { StoredSound } from '../catalog/sound.ts';
import type { RenditionChoice } from '../media/renditions.ts';
import type { MediaSigner } from '../media/signing.ts';
import { MediaMissingError, type MediaStore } from '../media/store.ts';
import { deliveredFile, readDelivered, tagsForDelivery } from '../media/tagged-file.ts';

/**
 * An MP3 of the media store (the sound's own, or its rendition in `choice`) as MCP carries binary
 * content: base64 (resource blobs, audio content), with the sound's tags as the media route
 * delivers it.
 */
export async function storedMp3Base64(
  services: { files: MediaStore; signer: Pick<MediaSigner, 'publicBase'> },
  sound: StoredSound,
  fileKey: string,
  choice: RenditionChoice = {},
): Promise<string> {
  const { files, signer } = services;
  const size = await files.size(fileKey);
  if (size === null) throw new MediaMissingError(fileKey);
  const tags = await tagsForDelivery(files, sound, choice, signer.publicBase());
  const file = await deliveredFile(files, fileKey, size, 'mp3', tags);
  return (await buffer(await readDelivered(files, fileKey, file))).toString('base64');
}
