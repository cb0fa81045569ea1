import { forEachConcurrently, type IngestServices } from './pipeline.ts';
import { silentProgress, type Progress } from './progress.ts';
import { WorkerPool } from './worker-pool.ts';

export interface DescribeSummary {
  described: number;
  failed: Array<{ id: string; reason: string }>;
}

export interface DescribeOptions {
  progress?: Progress;
  /** Aborting stops new work; sounds already described stay described. */
  signal?: AbortSignal;
  workers?: number;
}

/**
 * Measures the audio descriptors of every sound stored without them (sounds from before they
 * existed), on the stored MP3 in worker threads, as ingest would have. Each sound is written on
 * its own, so an interrupted run keeps what it finished and the next run does the rest.
 */
export async function describeMissing(
  services: IngestServices,
  options: DescribeOptions = {},
): Promise<DescribeSummary> {
  const sounds = await services.catalogWriter.undescribed();
  const summary: DescribeSummary = { described: 0, failed: [] };
  const progress = options.progress ?? silentProgress;
  progress.start(sounds.length);
  // Where a bucket's files are downloaded for the workers to read.
  await services.files.prepareScratchFolder();
  const pool = new WorkerPool(options.workers);
  try {
    await forEachConcurrently(sounds, pool.size * 2, options.signal, async ({ id, fileKey }) => {
      try {
        // A stored file is an MP3, so it is only decoded and measured: nothing is written to the temporary path.
        const source = await services.files.localCopy(fileKey);
        const result = await pool
          .run({ kind: 'file', sourcePath: source.path, temporaryPath: services.files.temporaryPath(), encoding: {} })
          .finally(() => source.release());
        if (!result.ok) summary.failed.push({ id, reason: result.reason });
        else if (result.kind !== 'file' || result.measurements.descriptors === null)
          summary.failed.push({ id, reason: 'no descriptors measured' });
        else if (await services.catalogWriter.setDescriptors(id, result.measurements.descriptors)) summary.described++;
      } catch (error) {
        summary.failed.push({ id, reason: `could not describe: ${(error as Error).message}` });
      }
      progress.advance();
    });
  } finally {
    await pool.close();
    progress.finish();
  }
  return summary;
}
