import { buffer } from 'node:stream/consumers';
import type { MediaStore } from '../media/store.ts';

/** An MP3 of the media store as MCP carries binary content: base64 (resource blobs, audio content). */
export async function storedMp3Base64(files: MediaStore, fileKey: string): Promise<string> {
  return (await buffer(await files.read(fileKey))).toString('base64');
}
