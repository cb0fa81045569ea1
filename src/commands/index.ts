import { ConfigError, loadConfig } from '../config.ts';
import { DomainError } from '../errors.ts';
import { accountsCommand } from './accounts.ts';
import { UsageError } from './cli.ts';
import { ingestCommand } from './ingest.ts';
import { keysCommand } from './keys.ts';
import { samplesCommand } from './samples.ts';
import { seedCommand } from './seed.ts';
import { serveCommand } from './serve.ts';

type Command = (args: string[], config: ReturnType<typeof loadConfig>) => Promise<void>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  seed: seedCommand,
  ingest: ingestCommand,
  accounts: accountsCommand,
  keys: keysCommand,
  samples: samplesCommand,
};

const USAGE = `usage: sound-catalog <command> [options]
  serve                                         start the HTTP API, docs, dashboard and MCP server
  seed [--count N] [--seed S]                   synthesize N demo sounds into the catalog
  ingest PATH... [--vbr-quality Q | --bitrate K] analyze and import audio files and folders
  accounts create --email E --plan free|pro|enterprise
  accounts set-plan --email E --plan P
  keys create --email E [--name N]              the full key is shown this once
  keys list --email E
  keys revoke PREFIX
  samples set ID...                             the sounds of the public sample endpoints
Every command takes --json to print one JSON object.`;

/** Runs one command; returns the exit status. Failures are one line on standard error. */
export async function runCommand(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(name === undefined || name === '--help' || name === 'help' ? USAGE + '\n' : `unknown command "${name}"\n${USAGE}\n`);
    return name === undefined || name === '--help' || name === 'help' ? 0 : 2;
  }
  try {
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
