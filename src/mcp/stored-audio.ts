import { buffer } from 'node:stream/consumers';
import type { FileStore } from '../media/file-store.ts';

/** An MP3 of the file store as MCP carries binary content: base64 (resource blobs, audio content). */
export async function storedMp3Base64(files: FileStore, fileKey: string): Promise<string> {
  return (await buffer(files.read(fileKey))).toString('base64');
}
