import type { Config } from '../config.ts';
import { notFound } from '../errors.ts';
import { outputFor, parse, UsageError } from './cli.ts';
import { withServices } from './with-services.ts';

export async function samplesCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parse(args, {});
  const output = outputFor(values.json === true);
  const [action, ...ids] = positionals;
  if (action !== 'set') throw new UsageError('use "samples set ID..."');
  await withServices(config, async (services) => {
    const { samples, unknown } = await services.catalog.setSamples([...new Set(ids)]);
    if (unknown.length > 0) throw notFound(`no sound with id ${unknown.join(', ')}; nothing changed`);
    output.result({ samples }, `${samples} sounds are now the public samples`);
  });
}
