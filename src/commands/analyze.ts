import type { Config } from '../config.ts';
import { describeMissing } from '../ingest/describe.ts';
import { createProgress } from '../ingest/progress.ts';
import { outputFor, parse, UsageError } from './cli.ts';
import { stopOnSignal } from './interrupt.ts';
import { withServices } from './with-services.ts';

/** `analyze --missing`: measures what sounds stored before a measurement existed lack (today: audio descriptors). */
export async function analyzeCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parse(args, { missing: { type: 'boolean' } });
  const output = outputFor(values.json === true);
  if (values.missing !== true || positionals.length > 0)
    throw new UsageError('analyze takes --missing (and --json): it measures what stored sounds lack');
  const interrupt = stopOnSignal();
  try {
    await withServices(config, async (services) => {
      const summary = await describeMissing(services, { progress: createProgress('sounds'), signal: interrupt.signal });
      if (interrupt.signal.aborted)
        throw new UsageError(`interrupted: ${summary.described} described before the stop; run it again for the rest`);
      const failures = summary.failed.map((failure) => `  failed: ${failure.id}: ${failure.reason}`);
      output.result(
        { described: summary.described, failed: summary.failed },
        [`described ${summary.described}, failed ${summary.failed.length}`, ...failures].join('\n'),
      );
    });
  } finally {
    interrupt.dispose();
  }
}
