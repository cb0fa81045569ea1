import { rm, stat } from 'node:fs/promises';
import type { Mp3EncodeOptions } from '../audio/encode/index.ts';
import { contentHashOf } from '../catalog/writer.ts';
import type { Services } from '../services.ts';
import { hashFile } from './hash.ts';
import { MetadataError, readMetadata } from './metadata.ts';
import { silentProgress, type Progress } from './progress.ts';
import { findAudioFiles } from './walk.ts';
import { WorkerPool } from './worker-pool.ts';

export interface IngestSummary {
  added: number;
  updated: number;
  failed: Array<{ file: string; reason: string }>;
}

export interface PipelineOptions {
  /** How files that are not MP3 are encoded (default LAME VBR V2). */
  encoding?: Mp3EncodeOptions;
  progress?: Progress;
  /** Aborting stops new work; what is finished stays, whole. */
  signal?: AbortSignal;
  workers?: number;
}

/**
 * Files and folders into the catalog: metadata, content hash (known content only has its
 * metadata updated), then decode → encode → measure in worker threads, then file, then row.
 */
export async function ingestPaths(services: Pick<Services, 'files' | 'catalogWriter'>, paths: string[], options: PipelineOptions = {}): Promise<IngestSummary> {
  const { files, missing } = await findAudioFiles(paths);
  const summary: IngestSummary = { added: 0, updated: 0, failed: [...missing] };
  await services.files.prepareScratchFolder();
  const progress = options.progress ?? silentProgress;
  progress.start(files.length);
  const pool = new WorkerPool(options.workers);
  try {
    await forEachConcurrently(files, pool.size * 2, options.signal, async (file) => {
      try {
        const outcome = await ingestFile(services, pool, file, options.encoding ?? {});
        summary[outcome]++;
      } catch (error) {
        summary.failed.push({ file, reason: error instanceof IngestFailure || error instanceof MetadataError ? error.message : `could not ingest: ${(error as Error).message}` });
      }
      progress.advance();
    });
  } finally {
    await pool.close();
    await services.files.prepareScratchFolder();
    progress.finish();
  }
  return summary;
}

class IngestFailure extends Error {}

async function ingestFile(services: Pick<Services, 'files' | 'catalogWriter'>, pool: WorkerPool, file: string, encoding: Mp3EncodeOptions): Promise<'added' | 'updated'> {
  const metadata = await readMetadata(file);
  const { hash } = await hashFile(file);
  if (await services.catalogWriter.updateMetadata(hash, metadata)) return 'updated';
  const result = await pool.run({ kind: 'file', sourcePath: file, temporaryPath: services.files.temporaryPath(), encoding });
  if (!result.ok) throw new IngestFailure(result.reason);
  if (result.kind !== 'file') throw new Error('unexpected worker result');
  const { size } = await stat(result.mp3Path);
  try {
    const { added } = await services.catalogWriter.put({
      contentHash: hash,
      mp3: { path: result.mp3Path, size, move: result.encoded },
      metadata,
      measurements: result.measurements,
    });
    return added ? 'added' : 'updated';
  } finally {
    if (result.encoded) await rm(result.mp3Path, { force: true });
  }
}

export interface SeedOptions extends PipelineOptions {
  /** Demo sounds `from` (default 0) up to, not including, `count`. */
  count: number;
  from?: number;
  seed: string;
}

/** Synthesizes the demo catalog through the same encode → measure → store path as ingest. */
export async function seedCatalog(services: Pick<Services, 'files' | 'catalogWriter'>, options: SeedOptions): Promise<{ added: number; updated: number }> {
  const progress = options.progress ?? silentProgress;
  const counts = { added: 0, updated: 0 };
  const from = options.from ?? 0;
  const indexes = Array.from({ length: Math.max(0, options.count - from) }, (_, i) => from + i);
  progress.start(indexes.length);
  const pool = new WorkerPool(options.workers);
  try {
    await forEachConcurrently(indexes, pool.size * 2, options.signal, async (index) => {
      const result = await pool.run({ kind: 'synth', seed: options.seed, index });
      if (!result.ok) throw new Error(`demo sound ${index}: ${result.reason}`);
      if (result.kind !== 'synth') throw new Error('unexpected worker result');
      const { metadata } = result;
      const { added } = await services.catalogWriter.put({
        contentHash: contentHashOf(result.mp3),
        mp3: result.mp3,
        metadata: { name: metadata.name, description: metadata.description, tags: metadata.tags, category: metadata.category, license: 'CC0', sample: metadata.sample },
        measurements: result.measurements,
      });
      counts[added ? 'added' : 'updated']++;
      progress.advance();
    });
  } finally {
    await pool.close();
    progress.finish();
  }
  return counts;
}

/** Runs `work` over items with at most `limit` at once, in order of start; stops starting on abort. */
export async function forEachConcurrently<T>(items: T[], limit: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !signal?.aborted) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

