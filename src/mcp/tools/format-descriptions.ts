import type { z } from 'zod';

/**
 * The format arguments, described for an agent in a line each: the REST wording explains status
 * codes and headers an agent never sees, and every byte of tools/list is read before any call.
 */
const BRIEF = {
  format: 'File format, default mp3 (others are renditions).',
  sample_rate: "Hz; default the sound's own (opus: 48000).",
  channels: "1 (mono) or 2; default the sound's own.",
  bit_depth: '16 (default) or 24, for wav and flac.',
} as const;

export function briefFormatArguments<S extends Record<keyof typeof BRIEF, z.ZodType>>(shape: S): S {
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => [
      name,
      schema.describe(BRIEF[name as keyof typeof BRIEF] ?? schema.description),
    ]),
  ) as S;
}

/**
 * The same arguments described once, in `tool`, and pointed to elsewhere: the URL tools share
 * their rendition and format arguments, and an agent reads tools/list whole.
 */
export function describedIn<S extends Record<string, z.ZodType>>(tool: string, shape: S): S {
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => [name, schema.describe(`As in ${tool}.`)]),
  ) as S;
}
