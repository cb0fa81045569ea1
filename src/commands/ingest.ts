import type { Config } from '../config.ts';
import { UsageError } from './cli.ts';

export async function ingestCommand(_args: string[], _config: Config): Promise<void> {
  throw new UsageError('ingest is not available yet');
}
