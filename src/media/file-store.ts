import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * MP3 files on local disk under `<data>/audio`. Keys are made by the service (from content
 * hashes), never from a URL, and are checked to stay inside the folder anyway.
 */
export class FileStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'audio');
  }

  /** Writes under a temporary name and renames, so a crash never leaves a half-written file. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(key), range);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(this.root + path.sep)) throw new Error(`file key outside the store: ${key}`);
    return resolved;
  }
}

/** Content-addressed key: two levels of fan-out keep folders small at 100,000 files. */
export function fileKeyFor(contentHash: string): string {
  return `${contentHash.slice(0, 2)}/${contentHash}.mp3`;
}
