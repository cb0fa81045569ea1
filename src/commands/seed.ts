import type { Config } from '../config.ts';
import { UsageError } from './cli.ts';

export async function seedCommand(_args: string[], _config: Config): Promise<void> {
  throw new UsageError('seed is not available yet');
}
