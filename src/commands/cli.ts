import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A failure to show as one line on standard error, with a non-zero exit. */
export class UsageError extends Error {}

export interface CommandOutput {
  json: boolean;
  /** Prints the result: the JSON object with --json, otherwise the human line(s). */
  result(value: Record<string, unknown>, human: string): void;
}

export function outputFor(json: boolean): CommandOutput {
  return {
    json,
    result(value, human) {
      process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
    },
  };
}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({
      args,
      options: { ...options, json: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function required(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`${flag} is required`);
  return value;
}
