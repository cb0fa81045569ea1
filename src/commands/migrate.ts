import type { Config } from '../config.ts';
import { openForMigration } from '../db/index.ts';
import { outputFor, parse } from './cli.ts';

/**
 * Brings the database schema up to date and says what it applied. `serve` and the other commands
 * do this themselves unless SOUND_CATALOG_MIGRATE=0; with several instances, run this once per
 * release instead (docs/operations.md, "Several instances"). Safe to run twice: applied migrations are skipped, and two
 * runs at once wait for each other.
 */
export async function migrateCommand(args: string[], config: Config): Promise<void> {
  const { values } = parse(args, {});
  const output = outputFor(values.json === true);
  const { handle, applied } = await openForMigration(config);
  await handle.close();
  const backend = config.databaseUrl ? 'postgres' : 'sqlite';
  output.result(
    { backend, applied },
    applied.length > 0
      ? `applied ${applied.length} migration${applied.length === 1 ? '' : 's'} (${backend}): ${applied.join(', ')}`
      : `the ${backend} database schema is up to date`,
  );
}
