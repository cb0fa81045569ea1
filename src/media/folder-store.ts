import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  MediaMissingError,
  MediaStoreError,
  type ByteRange,
  type LocalCopy,
  type MediaStat,
  type MediaStore,
} from './store.ts';

/**
 * Local scratch files for workers (encodes, renditions, downloads from a bucket), in one folder
 * named by process id so that a later run can sweep what a killed one left.
 */
export class ScratchFolder {
  private count = 0;

  constructor(readonly folder: string) {}

  /** A fresh name in the folder. */
  path(): string {
    return path.join(this.folder, `${process.pid}-${Date.now()}-${++this.count}.part`);
  }

  /**
   * Makes sure the folder exists and holds nothing left by processes that are gone (a killed
   * ingest), nor by this one.
   */
  async prepare(): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    for (const name of await readdir(this.folder)) {
      const pid = Number(name.split('-')[0]);
      if (pid === process.pid || !isAlive(pid)) await rm(path.join(this.folder, name), { force: true });
    }
  }
}

/**
 * Media files on local disk under `<data>/audio`. Keys are checked to stay inside the folder
 * although the service makes them itself.
 */
export class FolderStore implements MediaStore {
  readonly root: string;
  readonly description: string;
  private readonly scratch: ScratchFolder;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'audio');
    this.description = `media folder ${this.root}`;
    // In the store's own folder: same file system, so a rename moves a finished file into place.
    this.scratch = new ScratchFolder(path.join(this.root, '.tmp'));
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

  temporaryPath(): string {
    return this.scratch.path();
  }

  prepareScratchFolder(): Promise<void> {
    return this.scratch.prepare();
  }

  async stat(key: string): Promise<MediaStat | null> {
    try {
      const found = await stat(this.pathOf(key));
      return found.isFile() ? { size: found.size, modified: found.mtime, md5: null } : null;
    } catch {
      return null;
    }
  }

  async size(key: string): Promise<number | null> {
    return (await this.stat(key))?.size ?? null;
  }

  read(key: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key), range);
    // Resolves once the file is open, so a missing one is a rejection here rather than a stream error later.
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'ENOENT' ? new MediaMissingError(key) : error),
      );
    });
  }

  async localCopy(key: string): Promise<LocalCopy> {
    return { path: this.pathOf(key), release: async () => {} };
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async redirectUrl(): Promise<null> {
    return null;
  }

  async ready(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
    } catch (error) {
      throw new MediaStoreError(`the ${this.description} cannot be used: ${(error as Error).message}`);
    }
  }

  close(): void {}

  /** Every stored key, renditions included (for `media copy`); scratch files are not stored ones. */
  async *keys(): AsyncGenerator<string> {
    let names: string[];
    try {
      names = await readdir(this.root, { recursive: true });
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const key = name.split(path.sep).join('/');
      if (key.startsWith('.tmp/') || !key.endsWith('.mp3')) continue;
      if ((await this.stat(key)) !== null) yield key;
    }
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
