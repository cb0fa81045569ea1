import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * MP3 files on local disk under `<data>/audio`. Keys are made by the service (from content
 * hashes), never from a URL, and are checked to stay inside the folder anyway.
 */
export class FileStore {
  readonly root: string;
  private temporaryCount = 0;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'audio');
  }

  /** Writes under a temporary name and renames, so a crash never leaves a half-written file. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = this.temporaryPath();
    await mkdir(path.dirname(temporary), { recursive: true });
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  }

  /** Moves a finished file (written under `temporaryPath()`) into place, or copies one from elsewhere. */
  async putFile(key: string, sourcePath: string, move: boolean): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    if (move) {
      await rename(sourcePath, target);
      return;
    }
    const temporary = this.temporaryPath();
    await mkdir(path.dirname(temporary), { recursive: true });
    try {
      await copyFile(sourcePath, temporary);
      const handle = await open(temporary, 'r+');
      await handle.sync().finally(() => handle.close());
      await rename(temporary, target);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /** A fresh name in the store's scratch folder: same file system, so a rename moves it into place. */
  temporaryPath(): string {
    return path.join(this.root, '.tmp', `${process.pid}-${Date.now()}-${++this.temporaryCount}.part`);
  }

  /**
   * Makes sure the scratch folder exists and holds nothing left by processes that are gone
   * (a killed ingest), nor by this one.
   */
  async prepareScratchFolder(): Promise<void> {
    const folder = path.join(this.root, '.tmp');
    await mkdir(folder, { recursive: true });
    const names = await readdir(folder);
    for (const name of names) {
      const pid = Number(name.split('-')[0]);
      if (pid === process.pid || !isAlive(pid)) await rm(path.join(folder, name), { force: true });
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  /** Where a stored file is on disk, for workers that read it themselves (analysis). */
  localPath(key: string): string {
    return this.pathOf(key);
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

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Content-addressed key: two levels of fan-out keep folders small at 100,000 files. */
export function fileKeyFor(contentHash: string): string {
  return `${contentHash.slice(0, 2)}/${contentHash}.mp3`;
}
