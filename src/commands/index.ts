import { ConfigError, loadConfig } from '../config.ts';
import { DomainError } from '../errors.ts';
import { UsageError } from './cli.ts';

type Command = (args: string[], config: ReturnType<typeof loadConfig>) => Promise<void>;

/** Each command is loaded only when run: `keys list` need not load the server, MCP and audio code. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.ts')).serveCommand,
  migrate: async () => (await import('./migrate.ts')).migrateCommand,
  seed: async () => (await import('./seed.ts')).seedCommand,
  ingest: async () => (await import('./ingest.ts')).ingestCommand,
  analyze: async () => (await import('./analyze.ts')).analyzeCommand,
  accounts: async () => (await import('./accounts.ts')).accountsCommand,
  keys: async () => (await import('./keys.ts')).keysCommand,
  samples: async () => (await import('./samples.ts')).samplesCommand,
  media: async () => (await import('./media.ts')).mediaCommand,
};

const USAGE = `usage: sound-catalog <command> [options]
  serve                                         start the HTTP API, docs, dashboard and MCP server
  migrate                                       bring the database schema up to date
  seed [--count N] [--seed S]                   synthesize N demo sounds into the catalog
  ingest PATH... [--vbr-quality Q | --bitrate K] analyze and import audio files and folders
  ingest --dry-run [--verbose] PATH...          show what would be added, updated or refused, writing nothing;
                                                --verbose: where each field came from (tags, sidecar, defaults)
  analyze --missing                             measure the audio descriptors sounds stored before them lack
  accounts create --email E --plan free|pro|enterprise [--operator]
  accounts set-plan --email E --plan P [--operator]   --operator: the account may use the dashboard's operator page
  keys create --email E [--name N]              the full key is shown this once
  keys list --email E
  keys revoke PREFIX
  samples set ID...                             the sounds of the public sample endpoints
  media copy --to s3 [--dry-run]                copy the data folder's media into the S3_BUCKET bucket
Every command takes --json to print one JSON object.`;

/** Runs one command; returns the exit status. Failures are one line on standard error. */
export async function runCommand(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const load = name ? COMMANDS[name] : undefined;
  if (!load) {
    process.stderr.write(
      name === undefined || name === '--help' || name === 'help'
        ? `${USAGE}\n`
        : `unknown command "${name}"\n${USAGE}\n`,
    );
    return name === undefined || name === '--help' || name === 'help' ? 0 : 2;
  }
  try {
    const command = await load();
    await command(args, loadConfig());
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof DomainError) {
      process.stderr.write(`sound-catalog ${name}: ${error.message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    process.stderr.write(`sound-catalog ${name}: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
