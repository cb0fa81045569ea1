import type { Config } from '../config.ts';
import { createProgress } from '../ingest/progress.ts';
import { seedCatalog } from '../ingest/pipeline.ts';
import { outputFor, parse, UsageError } from './cli.ts';
import { stopOnSignal } from './interrupt.ts';
import { withServices } from './with-services.ts';

export const DEFAULT_SEED_COUNT = 1000;
export const DEFAULT_SEED = 'sound-catalog';

export async function seedCommand(args: string[], config: Config): Promise<void> {
  const { values } = parse(args, { count: { type: 'string' }, seed: { type: 'string' } });
  const output = outputFor(values.json === true);
  const count = values.count === undefined ? DEFAULT_SEED_COUNT : Number(values.count);
  if (!Number.isInteger(count) || count < 0 || count > 1_000_000)
    throw new UsageError('--count must be a whole number from 0 to 1000000');
  const seed = typeof values.seed === 'string' ? values.seed : DEFAULT_SEED;
  const interrupt = stopOnSignal();
  try {
    await withServices(config, async (services) => {
      const result = await seedCatalog(services, {
        count,
        seed,
        progress: createProgress('sounds'),
        signal: interrupt.signal,
      });
      if (interrupt.signal.aborted)
        throw new UsageError(`interrupted: ${result.added} sounds were added before the stop`);
      output.result(
        { added: result.added },
        `added ${result.added} demo sounds${result.updated ? ` (${result.updated} were already there)` : ''}`,
      );
    });
  } finally {
    interrupt.dispose();
  }
}
