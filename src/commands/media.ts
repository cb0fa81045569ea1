import type { Config } from '../config.ts';
import { createProgress } from '../ingest/progress.ts';
import { copyMedia } from '../media/copy.ts';
import { FolderStore } from '../media/folder-store.ts';
import { S3Store } from '../media/s3-store.ts';
import { outputFor, parse, UsageError } from './cli.ts';
import { stopOnSignal } from './interrupt.ts';

/** `media copy --to s3`: the data folder's media (originals and renditions) into the bucket S3_BUCKET names. */
export async function mediaCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parse(args, { to: { type: 'string' }, 'dry-run': { type: 'boolean' } });
  const output = outputFor(values.json === true);
  if (positionals.length !== 1 || positionals[0] !== 'copy' || values.to !== 's3')
    throw new UsageError('usage: media copy --to s3 [--dry-run]');
  if (!config.s3)
    throw new UsageError('media copy --to s3 needs S3_BUCKET (with S3_ENDPOINT for a store other than AWS)');
  const dryRun = values['dry-run'] === true;
  const from = new FolderStore(config.dataDir);
  const to = new S3Store(config.s3, config.dataDir);
  const interrupt = stopOnSignal();
  try {
    await to.ready();
    await to.prepareScratchFolder();
    const summary = await copyMedia(from, to, { dryRun, progress: createProgress('files'), signal: interrupt.signal });
    if (interrupt.signal.aborted) {
      throw new UsageError(`interrupted: ${summary.copied.length} copied before the stop; run it again for the rest`);
    }
    const counts =
      `${summary.copied.length} (${summary.bytes} bytes), skip ${summary.skipped} already in the ` +
      `${to.description}`;
    output.result(
      {
        dryRun,
        copied: summary.copied.length,
        skipped: summary.skipped,
        bytes: summary.bytes,
        ...(dryRun && { files: summary.copied }),
      },
      dryRun
        ? [...summary.copied.map((key) => `copy ${key}`), `would copy ${counts} (dry run: nothing was written)`].join(
            '\n',
          )
        : `copied ${counts.replace('skip', 'skipped')}; the data folder keeps its copy until you remove it`,
    );
  } finally {
    interrupt.dispose();
    to.close();
  }
}
