import type { Config } from '../config.ts';
import { createProgress } from '../ingest/progress.ts';
import { ingestPaths } from '../ingest/pipeline.ts';
import { outputFor, parse, UsageError } from './cli.ts';
import { stopOnSignal } from './interrupt.ts';
import { withServices } from './with-services.ts';

export async function ingestCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parse(args, {});
  const output = outputFor(values.json === true);
  if (positionals.length === 0) throw new UsageError('ingest needs at least one file or folder');
  const interrupt = stopOnSignal();
  try {
    await withServices(config, async (services) => {
      const summary = await ingestPaths(services, positionals, { progress: createProgress('files'), signal: interrupt.signal });
      if (interrupt.signal.aborted) throw new UsageError(`interrupted: ${summary.added} added and ${summary.updated} updated before the stop`);
      const failures = summary.failed.map((failure) => `  failed: ${failure.file}: ${failure.reason}`);
      output.result(
        { added: summary.added, updated: summary.updated, failed: summary.failed },
        [`added ${summary.added}, updated ${summary.updated}, failed ${summary.failed.length}`, ...failures].join('\n'),
      );
    });
  } finally {
    interrupt.dispose();
  }
}
