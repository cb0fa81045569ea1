import { md5OfFile } from './s3-store.ts';
import type { FolderStore } from './folder-store.ts';
import type { MediaStore } from './store.ts';
import { forEachConcurrently } from '../ingest/pipeline.ts';
import { silentProgress, type Progress } from '../ingest/progress.ts';

/** Uploads at once: enough to keep a remote store busy without flooding it. */
const COPY_LANES = 4;

export interface CopySummary {
  /** Keys copied (or, in a dry run, that would be). */
  copied: string[];
  /** Already in the target with the same size and MD5. */
  skipped: number;
  /** Bytes copied (or that would be). */
  bytes: number;
}

export interface CopyOptions {
  dryRun?: boolean;
  progress?: Progress;
  /** Aborting stops new copies; the ones in hand finish, and a later run goes on from there. */
  signal?: AbortSignal;
}

/**
 * Copies every stored file of a folder (originals and renditions) into another store, under the
 * same keys. Idempotent and so resumable: a file already there with the same size and MD5 is
 * skipped, and each upload is whole or absent. Every copy is read back (its stat) and compared
 * with the local MD5 before it counts.
 */
export async function copyMedia(from: FolderStore, to: MediaStore, options: CopyOptions = {}): Promise<CopySummary> {
  const keys: string[] = [];
  for await (const key of from.keys()) keys.push(key);
  const summary: CopySummary = { copied: [], skipped: 0, bytes: 0 };
  const progress = options.progress ?? silentProgress;
  progress.start(keys.length);
  try {
    await forEachConcurrently(keys, COPY_LANES, options.signal, async (key) => {
      const local = await from.localCopy(key);
      const size = (await from.size(key)) ?? 0;
      const md5 = await md5OfFile(local.path);
      const there = await to.stat(key);
      if (there && there.size === size && there.md5 === md5) {
        summary.skipped++;
      } else {
        if (!options.dryRun) {
          await to.putFile(key, local.path, false);
          const copied = await to.stat(key);
          if (!copied || copied.size !== size || copied.md5 !== md5)
            throw new Error(`${key}: the copy in the ${to.description} does not match the local file (size or MD5)`);
        }
        summary.copied.push(key);
        summary.bytes += size;
      }
      progress.advance();
    });
  } finally {
    progress.finish();
  }
  return summary;
}
