import { runCommand } from './commands/index.ts';

/** `sound-catalog <command> ...`: picks a command and nothing else. */
process.exitCode = await runCommand(process.argv.slice(2));
